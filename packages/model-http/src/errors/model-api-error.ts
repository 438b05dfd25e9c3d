import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.ModelApiError');

/** Options of {@link ModelApiError}. */
export interface ModelApiErrorOptions {
  /** Provider id, e.g. `gemini`, `anthropic`, `openai`. */
  provider: string;
  /** Model the call was made for. */
  model: string;
  /** HTTP status code of the failed response. */
  status: number;
  /** Whether repeating the same call later may succeed (rate limits, overload, 5xx). */
  retryable: boolean;
  /** The provider's own error message, taken from its error JSON, when there is one. */
  providerMessage?: string;
  /** The provider's own error type or status, e.g. `RESOURCE_EXHAUSTED` or `rate_limit_error`. */
  providerErrorType?: string;
  /** Raw response body (truncated to 4 KiB). */
  responseBody?: string;
  /** Delay the server asked for (`Retry-After`), in milliseconds. */
  retryAfterMs?: number;
  /** The provider's request id header, useful in support tickets. */
  requestId?: string;
  cause?: unknown;
}

/**
 * The provider answered with an HTTP error status. `retryable` says whether the same call may
 * succeed later; the HTTP layer has already retried retryable errors `maxRetries` times when this
 * is thrown.
 *
 * @example
 * ```ts
 * try { for await (const r of model.generate(request, { stream: false })) use(r); }
 * catch (error) {
 *   if (ModelApiError.isInstance(error) && error.status === 401) console.error('bad API key');
 * }
 * ```
 */
export class ModelApiError extends AdkError {
  private readonly [MARKER] = true;
  readonly provider: string;
  readonly model: string;
  readonly status: number;
  readonly retryable: boolean;
  readonly providerMessage: string | undefined;
  readonly providerErrorType: string | undefined;
  readonly responseBody: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly requestId: string | undefined;

  constructor(options: ModelApiErrorOptions) {
    const detail = options.providerMessage ? `: ${options.providerMessage}` : '';
    super('ModelApiError', 'MODEL_API_ERROR', {
      message: `${options.provider} API error ${options.status} for model "${options.model}"${detail}`,
      cause: options.cause,
    });
    this.provider = options.provider;
    this.model = options.model;
    this.status = options.status;
    this.retryable = options.retryable;
    this.providerMessage = options.providerMessage;
    this.providerErrorType = options.providerErrorType;
    this.responseBody = options.responseBody;
    this.retryAfterMs = options.retryAfterMs;
    this.requestId = options.requestId;
  }

  static override isInstance(error: unknown): error is ModelApiError {
    return AdkError.hasMarker(error, MARKER);
  }

  override toJSON(): { name: string; code: string; message: string } & {
    status: number;
    retryable: boolean;
    provider: string;
    model: string;
  } {
    return {
      ...super.toJSON(),
      status: this.status,
      retryable: this.retryable,
      provider: this.provider,
      model: this.model,
    };
  }
}
