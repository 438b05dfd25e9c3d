import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.SessionExistsError');

/** `createSession` was given an id that is already taken. Nothing was overwritten. */
export class SessionExistsError extends AdkError {
  private readonly [MARKER] = true;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;

  constructor(options: { appName: string; userId: string; sessionId: string; cause?: unknown }) {
    super('SessionExistsError', 'SESSION_EXISTS', {
      message: `Session "${options.sessionId}" of user "${options.userId}" in app "${options.appName}" already exists.`,
      cause: options.cause,
    });
    this.appName = options.appName;
    this.userId = options.userId;
    this.sessionId = options.sessionId;
  }

  static override isInstance(error: unknown): error is SessionExistsError {
    return AdkError.hasMarker(error, MARKER);
  }
}
