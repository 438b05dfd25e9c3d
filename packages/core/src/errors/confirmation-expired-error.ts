import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.ConfirmationExpiredError');

/**
 * A tool call waited for a human confirmation that did not come before its deadline (the
 * `timeoutMs` of the confirmation policy, of `FunctionTool({ confirmationTimeoutMs })` or of
 * `toolContext.requestConfirmation`). The call was not run: the model gets this error as the
 * call's response (code `CONFIRMATION_EXPIRED`), and an answer arriving later changes nothing.
 */
export class ConfirmationExpiredError extends AdkError {
  private readonly [MARKER] = true;
  /** The tool whose call was denied. */
  readonly toolName: string;
  /** The deadline that passed. */
  readonly expiresAt: Date;

  constructor(options: { toolName: string; expiresAt: Date; cause?: unknown }) {
    super('ConfirmationExpiredError', 'CONFIRMATION_EXPIRED', {
      message: `The call to "${options.toolName}" was not run: nobody confirmed it before its deadline (${options.expiresAt.toISOString()}).`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.expiresAt = options.expiresAt;
  }

  static override isInstance(error: unknown): error is ConfirmationExpiredError {
    return AdkError.hasMarker(error, MARKER);
  }
}
