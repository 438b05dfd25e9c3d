import { CredentialExchangeError } from '../errors/credential-exchange-error';
import type { AuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';
import { requestTokens, tokenUrlOf } from './oauth2-token-request';

/**
 * True when `credential` holds an OAuth2 authorization code but no access token, and `config`
 * (the tool's own, with its client registration) says where and how to exchange it.
 */
export function canExchangeAuthorizationCode(
  config: AuthConfig,
  credential: AuthCredential,
): boolean {
  const oauth2 = credential.oauth2;
  return (
    oauth2?.authCode !== undefined &&
    oauth2.accessToken === undefined &&
    tokenUrlOf(config) !== undefined &&
    config.rawAuthCredential?.oauth2?.clientId !== undefined
  );
}

/**
 * Exchange the authorization code of `credential` for tokens at the token endpoint of `config`
 * (RFC 6749 §4.1.3), authenticating the client with `client_secret_basic` (the default) or
 * `client_secret_post` (`rawAuthCredential.oauth2.tokenEndpointAuthMethod`). Returns the
 * credential with `accessToken`, `refreshToken`, `expiresIn` and `expiresAt` (seconds since the
 * epoch), without the used code.
 *
 * @throws CredentialExchangeError when the endpoint cannot be reached, refuses the code, or
 * answers without an access token.
 */
export async function exchangeAuthorizationCode(
  config: AuthConfig,
  credential: AuthCredential,
  options: { signal?: AbortSignal } = {},
): Promise<AuthCredential> {
  const tokenUrl = tokenUrlOf(config);
  const client = config.rawAuthCredential?.oauth2;
  const clientId = client?.clientId;
  const code = credential.oauth2?.authCode;
  if (!tokenUrl || !clientId || !code) {
    throw new CredentialExchangeError({
      tokenUrl: tokenUrl ?? '(none)',
      detail: 'the scheme has no token URL, the config no client id, or the credential no code',
    });
  }
  const params: Record<string, string> = { code };
  const redirectUri = credential.oauth2?.redirectUri ?? client.redirectUri;
  if (redirectUri) params.redirect_uri = redirectUri;
  const tokens = await requestTokens({
    tokenUrl,
    client: { ...client, clientId },
    grantType: 'authorization_code',
    params,
    nowSeconds: Math.floor(Date.now() / 1000),
    signal: options.signal,
  });
  const { authCode: _used, ...rest } = credential.oauth2 ?? {};
  return { ...credential, oauth2: { ...rest, ...tokens } };
}
