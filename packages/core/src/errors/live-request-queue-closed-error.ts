import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.LiveRequestQueueClosedError');

/** A request was sent to a `LiveRequestQueue` after `close()`. */
export class LiveRequestQueueClosedError extends AdkError {
  private readonly [MARKER] = true;

  constructor(options: { message?: string } = {}) {
    super('LiveRequestQueueClosedError', 'LIVE_REQUEST_QUEUE_CLOSED', {
      message: options.message ?? 'The live request queue is closed.',
    });
  }

  static override isInstance(error: unknown): error is LiveRequestQueueClosedError {
    return AdkError.hasMarker(error, MARKER);
  }
}
