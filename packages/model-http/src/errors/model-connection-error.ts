import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.ModelConnectionError');

/**
 * The provider could not be reached (DNS failure, refused or reset connection) before a response
 * arrived. Always retryable; the HTTP layer has already retried it `maxRetries` times.
 */
export class ModelConnectionError extends AdkError {
  private readonly [MARKER] = true;
  readonly provider: string;
  readonly model: string;
  /** The URL that could not be reached (without query string). */
  readonly url: string;
  readonly retryable = true;

  constructor(options: { provider: string; model: string; url: string; cause?: unknown }) {
    const reason = options.cause instanceof Error ? `: ${options.cause.message}` : '';
    super('ModelConnectionError', 'MODEL_CONNECTION_ERROR', {
      message: `Could not reach the ${options.provider} API at ${options.url} for model "${options.model}"${reason}`,
      cause: options.cause,
    });
    this.provider = options.provider;
    this.model = options.model;
    this.url = options.url;
  }

  static override isInstance(error: unknown): error is ModelConnectionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
