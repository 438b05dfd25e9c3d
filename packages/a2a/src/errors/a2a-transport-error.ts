import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.A2aTransportError');

/**
 * The HTTP exchange with a remote A2A agent failed: the connection was refused or dropped, the
 * request timed out, or the server answered with an HTTP error status instead of JSON-RPC.
 * `retryable` says whether trying again may help (connection errors, timeouts, 408, 429, 5xx).
 */
export class A2aTransportError extends AdkError {
  private readonly [MARKER] = true;
  /** The URL that was called. */
  readonly url: string;
  /** The HTTP status, when the server answered. */
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(options: {
    url: string;
    message: string;
    status?: number;
    retryable: boolean;
    cause?: unknown;
  }) {
    super('A2aTransportError', 'A2A_TRANSPORT_ERROR', {
      message: options.message,
      cause: options.cause,
    });
    this.url = options.url;
    this.status = options.status;
    this.retryable = options.retryable;
  }

  static override isInstance(error: unknown): error is A2aTransportError {
    return AdkError.hasMarker(error, MARKER);
  }
}
