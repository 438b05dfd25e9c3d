import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.InvocationNotFoundError');

/** `runner.resume` was asked for an invocation the session holds no event of. */
export class InvocationNotFoundError extends AdkError {
  private readonly [MARKER] = true;
  readonly sessionId: string;
  readonly invocationId: string;

  constructor(options: { sessionId: string; invocationId: string }) {
    super('InvocationNotFoundError', 'INVOCATION_NOT_FOUND', {
      message: `Session "${options.sessionId}" holds no event of invocation "${options.invocationId}".`,
    });
    this.sessionId = options.sessionId;
    this.invocationId = options.invocationId;
  }

  static override isInstance(error: unknown): error is InvocationNotFoundError {
    return AdkError.hasMarker(error, MARKER);
  }
}
