import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.CredentialExchangeError');

/**
 * Exchanging an OAuth2 authorization code for tokens failed: the token endpoint refused the code,
 * answered without an access token, or could not be reached. The code is forgotten (codes are
 * single-use), so the tool's next request for the credential asks the user again.
 */
export class CredentialExchangeError extends AdkError {
  private readonly [MARKER] = true;
  /** The token endpoint that was called. */
  readonly tokenUrl: string;
  /** The endpoint's HTTP status, when it answered. */
  readonly status: number | undefined;

  constructor(options: { tokenUrl: string; status?: number; detail: string; cause?: unknown }) {
    super('CredentialExchangeError', 'CREDENTIAL_EXCHANGE_FAILED', {
      message: `Exchanging the OAuth2 authorization code at ${options.tokenUrl} failed: ${options.detail}`,
      cause: options.cause,
    });
    this.tokenUrl = options.tokenUrl;
    this.status = options.status;
  }

  static override isInstance(error: unknown): error is CredentialExchangeError {
    return AdkError.hasMarker(error, MARKER);
  }
}
