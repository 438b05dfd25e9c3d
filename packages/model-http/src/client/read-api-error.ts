import type { Dispatcher } from 'undici';

import { ModelApiError } from '../errors/model-api-error';
import { isRetryableStatus } from '../retry/is-retryable-status';
import { parseRetryAfter } from '../retry/retry-after';
import type { ProviderErrorInfo } from './http-client-options';

const MAX_ERROR_BODY = 4096;

/**
 * Reads a non-2xx response into a {@link ModelApiError}: the provider's message and type from its
 * error JSON (or the raw text), retryability from the status and `x-should-retry`, the delay from
 * `Retry-After` (else from the body, when the parser finds one), and the request id header.
 */
export async function readApiError(
  response: Dispatcher.ResponseData,
  context: {
    provider: string;
    model: string;
    parseErrorBody: (body: unknown) => ProviderErrorInfo | undefined;
  },
): Promise<ModelApiError> {
  let text = '';
  try {
    text = await response.body.text();
  } catch {
    // A body that cannot be read leaves the status as the only information.
  }
  let info: ProviderErrorInfo | undefined;
  try {
    info = context.parseErrorBody(JSON.parse(text));
  } catch {
    info = text.trim() ? { message: text.trim().slice(0, 500) } : undefined;
  }
  const headers = response.headers;
  return new ModelApiError({
    provider: context.provider,
    model: context.model,
    status: response.statusCode,
    retryable: isRetryableStatus(response.statusCode, headers),
    providerMessage: info?.message,
    providerErrorType: info?.type,
    responseBody: text.slice(0, MAX_ERROR_BODY),
    retryAfterMs: parseRetryAfter(headers) ?? info?.retryAfterMs,
    requestId: headerValue(headers, 'request-id') ?? headerValue(headers, 'x-request-id'),
  });
}

function headerValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
