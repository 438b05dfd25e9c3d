import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.LiveConnectionLostError');

/**
 * A live run's model connection dropped (or the provider sent `goAway`) and could not be opened
 * again within the allowed attempts. `cause` is the last failure.
 */
export class LiveConnectionLostError extends AdkError {
  private readonly [MARKER] = true;
  /** Reconnection attempts made before giving up. */
  readonly attempts: number;

  constructor(options: { attempts: number; cause?: unknown }) {
    super('LiveConnectionLostError', 'LIVE_CONNECTION_LOST', {
      message: `The live connection was lost and ${options.attempts} reconnection attempt(s) failed.`,
      cause: options.cause,
    });
    this.attempts = options.attempts;
  }

  static override isInstance(error: unknown): error is LiveConnectionLostError {
    return AdkError.hasMarker(error, MARKER);
  }
}
