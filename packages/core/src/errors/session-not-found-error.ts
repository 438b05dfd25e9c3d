import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.SessionNotFoundError');

/** A session that was asked for (or appended to) does not exist. */
export class SessionNotFoundError extends AdkError {
  private readonly [MARKER] = true;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;

  constructor(options: { appName: string; userId: string; sessionId: string; cause?: unknown }) {
    super('SessionNotFoundError', 'SESSION_NOT_FOUND', {
      message: `Session "${options.sessionId}" of user "${options.userId}" in app "${options.appName}" was not found.`,
      cause: options.cause,
    });
    this.appName = options.appName;
    this.userId = options.userId;
    this.sessionId = options.sessionId;
  }

  static override isInstance(error: unknown): error is SessionNotFoundError {
    return AdkError.hasMarker(error, MARKER);
  }
}
