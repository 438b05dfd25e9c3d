import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.ModelStreamError');

/**
 * Why a response stream failed:
 * - `interrupted`: the connection broke mid-stream;
 * - `incomplete`: the stream ended cleanly but before the provider's final event;
 * - `malformed`: a chunk could not be parsed;
 * - `provider-error`: the provider sent an error event inside the stream.
 */
export type ModelStreamErrorKind = 'interrupted' | 'incomplete' | 'malformed' | 'provider-error';

/**
 * A streamed response failed after it started. Streams are never retried automatically (the
 * caller has already seen partial output); `retryable` says whether a fresh call may succeed.
 */
export class ModelStreamError extends AdkError {
  private readonly [MARKER] = true;
  readonly provider: string;
  readonly model: string;
  readonly kind: ModelStreamErrorKind;
  readonly retryable: boolean;
  /** The offending chunk, for `malformed` (truncated to 1 KiB). */
  readonly chunk: string | undefined;
  /** The provider's error type, for `provider-error` (e.g. `overloaded_error`). */
  readonly providerErrorType: string | undefined;

  constructor(options: {
    provider: string;
    model: string;
    kind: ModelStreamErrorKind;
    message: string;
    retryable?: boolean;
    chunk?: string;
    providerErrorType?: string;
    cause?: unknown;
  }) {
    super('ModelStreamError', 'MODEL_STREAM_ERROR', {
      message: `${options.provider} stream for model "${options.model}" failed (${options.kind}): ${options.message}`,
      cause: options.cause,
    });
    this.provider = options.provider;
    this.model = options.model;
    this.kind = options.kind;
    this.retryable = options.retryable ?? options.kind !== 'malformed';
    this.chunk = options.chunk?.slice(0, 1024);
    this.providerErrorType = options.providerErrorType;
  }

  static override isInstance(error: unknown): error is ModelStreamError {
    return AdkError.hasMarker(error, MARKER);
  }
}
