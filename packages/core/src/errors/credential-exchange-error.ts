import { AdkError } from './adk-error';

const MARKER = Symbol.for('adk.error.CredentialExchangeError');

/**
 * Getting OAuth2 tokens failed: exchanging an authorization code (`grantType`
 * `authorization_code`) or refreshing an expired access token (`refresh_token`). The token
 * endpoint refused the grant, answered without an access token, or could not be reached. A used
 * code is forgotten (codes are single-use), and so is a credential whose refresh the endpoint
 * refused, so the tool's next request for the credential asks the user again.
 */
export class CredentialExchangeError extends AdkError {
  private readonly [MARKER] = true;
  /** The token endpoint that was called. */
  readonly tokenUrl: string;
  /** The endpoint's HTTP status, when it answered. */
  readonly status: number | undefined;
  /** The grant that failed. */
  readonly grantType: 'authorization_code' | 'refresh_token';

  constructor(options: {
    tokenUrl: string;
    /** Default: `authorization_code`. */
    grantType?: 'authorization_code' | 'refresh_token';
    status?: number;
    detail: string;
    cause?: unknown;
  }) {
    const grantType = options.grantType ?? 'authorization_code';
    const what =
      grantType === 'refresh_token'
        ? 'Refreshing the OAuth2 access token'
        : 'Exchanging the OAuth2 authorization code';
    super('CredentialExchangeError', 'CREDENTIAL_EXCHANGE_FAILED', {
      message: `${what} at ${options.tokenUrl} failed: ${options.detail}`,
      cause: options.cause,
    });
    this.tokenUrl = options.tokenUrl;
    this.grantType = grantType;
    this.status = options.status;
  }

  static override isInstance(error: unknown): error is CredentialExchangeError {
    return AdkError.hasMarker(error, MARKER);
  }
}
