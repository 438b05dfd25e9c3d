import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.StaleSessionError');

/**
 * `appendEvent` was called with a Session object that no longer reflects storage: another writer
 * appended to the session after this object was read. Nothing was written; reload the session with
 * `getSession` and retry.
 */
export class StaleSessionError extends AdkError {
  private readonly [MARKER] = true;
  readonly sessionId: string;

  constructor(options: { sessionId: string; message?: string; cause?: unknown }) {
    super('StaleSessionError', 'STALE_SESSION', {
      message:
        options.message ??
        `Session "${options.sessionId}" was modified in storage after it was read. Reload it and retry.`,
      cause: options.cause,
    });
    this.sessionId = options.sessionId;
  }

  static override isInstance(error: unknown): error is StaleSessionError {
    return AdkError.hasMarker(error, MARKER);
  }
}
