import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.ServerShuttingDownError');

/**
 * The server is shutting down: a new run is refused (HTTP 503), or a run still going at the end of
 * the shutdown deadline is aborted (its stream ends with an error frame of this code; the stored
 * events stay, and `runner.resume` or a reconnect to another instance continues from them).
 */
export class ServerShuttingDownError extends AdkError {
  private readonly [MARKER] = true;

  constructor(options: { message?: string; cause?: unknown } = {}) {
    super('ServerShuttingDownError', 'SERVER_SHUTTING_DOWN', {
      message:
        options.message ??
        'The server is shutting down; the run was stopped. Resume it on another instance.',
      cause: options.cause,
    });
  }

  static override isInstance(error: unknown): error is ServerShuttingDownError {
    return AdkError.hasMarker(error, MARKER);
  }
}
