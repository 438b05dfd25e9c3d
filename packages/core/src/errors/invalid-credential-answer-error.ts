import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.InvalidCredentialAnswerError');

/**
 * The user's answer to an `adk_request_credential` request was refused: it carried no usable
 * credential (no `exchangedAuthCredential`, or one without a key, token or authorization code), or
 * its OAuth2 callback URL carries another `state` than the request. The tool did not run again;
 * the model gets this error as the call's response and nothing was stored.
 */
export class InvalidCredentialAnswerError extends AdkError {
  private readonly [MARKER] = true;
  readonly toolName: string;
  readonly credentialKey: string;

  constructor(options: {
    toolName: string;
    credentialKey: string;
    /** What is wrong with the answer; default: it holds no usable credential. */
    problem?: string;
    cause?: unknown;
  }) {
    const problem = options.problem ?? 'it holds no usable credential';
    super('InvalidCredentialAnswerError', 'INVALID_CREDENTIAL_ANSWER', {
      message: `The credential answer for tool "${options.toolName}" (credential "${options.credentialKey}") was refused: ${problem}; the tool was not run.`,
      cause: options.cause,
    });
    this.toolName = options.toolName;
    this.credentialKey = options.credentialKey;
  }

  static override isInstance(error: unknown): error is InvalidCredentialAnswerError {
    return AdkError.hasMarker(error, MARKER);
  }
}
