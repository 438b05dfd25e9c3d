import { CredentialExchangeError } from '../errors/credential-exchange-error';
import type { AuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';

/** The token endpoint of `config`'s scheme (OAuth2 authorization code, or OpenID Connect). */
function tokenUrlOf(config: AuthConfig): string | undefined {
  const scheme = config.authScheme;
  if (scheme.type === 'oauth2') return scheme.flows.authorizationCode?.tokenUrl;
  if (scheme.type === 'openIdConnect' && 'tokenEndpoint' in scheme) return scheme.tokenEndpoint;
  return undefined;
}

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
  const code = credential.oauth2?.authCode;
  if (!tokenUrl || !client?.clientId || !code) {
    throw new CredentialExchangeError({
      tokenUrl: tokenUrl ?? '(none)',
      detail: 'the scheme has no token URL, the config no client id, or the credential no code',
    });
  }
  const body = new URLSearchParams({ grant_type: 'authorization_code', code });
  const redirectUri = credential.oauth2?.redirectUri ?? client.redirectUri;
  if (redirectUri) body.set('redirect_uri', redirectUri);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (
    client.tokenEndpointAuthMethod === 'client_secret_post' ||
    client.clientSecret === undefined
  ) {
    body.set('client_id', client.clientId);
    if (client.clientSecret !== undefined) body.set('client_secret', client.clientSecret);
  } else {
    const pair = `${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  let response: Response;
  let payload: Record<string, unknown>;
  try {
    response = await fetch(tokenUrl, {
      method: 'POST',
      headers,
      body,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    payload = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  } catch (cause) {
    throw new CredentialExchangeError({
      tokenUrl,
      detail: 'the endpoint could not be reached',
      cause,
    });
  }
  const accessToken = payload.access_token;
  if (!response.ok || typeof accessToken !== 'string') {
    const reason = typeof payload.error === 'string' ? payload.error : 'no access_token';
    throw new CredentialExchangeError({
      tokenUrl,
      status: response.status,
      detail: `HTTP ${response.status}, ${reason}`,
    });
  }
  const { authCode: _used, ...rest } = credential.oauth2 ?? {};
  const oauth2: NonNullable<AuthCredential['oauth2']> = { ...rest, accessToken };
  if (typeof payload.refresh_token === 'string') oauth2.refreshToken = payload.refresh_token;
  if (typeof payload.expires_in === 'number') {
    oauth2.expiresIn = payload.expires_in;
    oauth2.expiresAt = Math.floor(Date.now() / 1000) + payload.expires_in;
  }
  return { ...credential, oauth2 };
}
