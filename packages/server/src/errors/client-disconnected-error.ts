import { AdkError } from '@adk/core';

const MARKER = Symbol.for('adk.error.ClientDisconnectedError');

/** The HTTP client went away during a run; used as the abort reason of the run's signal. */
export class ClientDisconnectedError extends AdkError {
  private readonly [MARKER] = true;

  constructor(options: { cause?: unknown } = {}) {
    super('ClientDisconnectedError', 'CLIENT_DISCONNECTED', {
      message: 'The client disconnected; the run was aborted.',
      cause: options.cause,
    });
  }

  static override isInstance(error: unknown): error is ClientDisconnectedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
