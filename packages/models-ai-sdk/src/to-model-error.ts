import { AdkError } from '@adk/core';
import {
  isRetryableStatus,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
  parseRetryAfter,
} from '@adk/model-http';

/** The fields of the AI SDK's `APICallError` read here (any copy, any version). */
interface ApiCallErrorLike {
  message: string;
  url?: string;
  statusCode?: number;
  isRetryable?: boolean;
  responseBody?: string;
  responseHeaders?: Record<string, string>;
}

function isApiCallError(error: unknown): error is ApiCallErrorLike {
  if (error === null || typeof error !== 'object') return false;
  const candidate = error as { name?: unknown; [key: symbol]: unknown };
  return (
    candidate.name === 'AI_APICallError' ||
    Symbol.for('vercel.ai.error.AI_APICallError') in candidate
  );
}

/** The provider's own message inside an error body (`{ error: { message } }` and the like). */
function providerMessageOf(body: string | undefined, fallback: string): string {
  if (body) {
    try {
      const parsed = JSON.parse(body) as {
        error?: { message?: unknown } | string;
        message?: unknown;
      };
      const nested = typeof parsed.error === 'object' ? parsed.error?.message : parsed.error;
      const message = nested ?? parsed.message;
      if (typeof message === 'string' && message !== '') return message;
    } catch {
      // not JSON: use the error's own message
    }
  }
  return fallback;
}

/**
 * One of core's typed model errors for what an AI SDK model threw: an HTTP error status becomes
 * `ModelApiError` (status, retryability, the provider's message, `Retry-After`), a request that
 * reached no server `ModelConnectionError`, anything that broke a started stream
 * `ModelStreamError` (retryable). Errors that already are ADK errors pass through.
 */
export function toModelError(
  error: unknown,
  context: { provider: string; model: string; streaming: boolean; started: boolean },
): AdkError {
  if (AdkError.isInstance(error)) return error;
  if (isApiCallError(error)) {
    if (error.statusCode !== undefined) {
      const headers = error.responseHeaders ?? {};
      const retryAfterMs = parseRetryAfter(headers);
      return new ModelApiError({
        provider: context.provider,
        model: context.model,
        status: error.statusCode,
        retryable: error.isRetryable ?? isRetryableStatus(error.statusCode, headers),
        providerMessage: providerMessageOf(error.responseBody, error.message),
        ...(error.responseBody === undefined
          ? {}
          : { responseBody: error.responseBody.slice(0, 4096) }),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        cause: error,
      });
    }
    if (!context.started) {
      return new ModelConnectionError({
        provider: context.provider,
        model: context.model,
        url: error.url ?? '(unknown URL)',
        cause: error,
      });
    }
  }
  if (!context.started && !context.streaming) {
    return new ModelConnectionError({
      provider: context.provider,
      model: context.model,
      url: '(unknown URL)',
      cause: error,
    });
  }
  return new ModelStreamError({
    provider: context.provider,
    model: context.model,
    kind: context.started ? 'interrupted' : 'provider-error',
    message: error instanceof Error ? error.message : String(error),
    retryable: true,
    cause: error,
  });
}
