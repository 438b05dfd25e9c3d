import { CredentialExchangeError } from '../errors/credential-exchange-error';
import type { AuthConfig } from './auth-config';
import type { OAuth2Auth } from './auth-credential';

/** The token endpoint of `config`'s scheme (OAuth2 authorization code, or OpenID Connect). */
export function tokenUrlOf(config: AuthConfig): string | undefined {
  const scheme = config.authScheme;
  if (scheme.type === 'oauth2') return scheme.flows.authorizationCode?.tokenUrl;
  if (scheme.type === 'openIdConnect' && 'tokenEndpoint' in scheme) return scheme.tokenEndpoint;
  return undefined;
}

/** The OAuth2 grants ADK sends to a token endpoint. */
export type TokenGrantType = 'authorization_code' | 'refresh_token';

/** The tokens a token endpoint answered, as `OAuth2Auth` fields. */
export type GrantedTokens = Pick<
  OAuth2Auth,
  'accessToken' | 'refreshToken' | 'expiresIn' | 'expiresAt'
>;

/**
 * POST `params` (with `grant_type`) to `tokenUrl` (RFC 6749 §3.2), authenticating the client of
 * `client` with `client_secret_basic` (the default) or `client_secret_post`
 * (`tokenEndpointAuthMethod`), and read the JSON answer. `expiresAt` is `nowSeconds` plus
 * `expires_in`.
 *
 * @throws CredentialExchangeError when the endpoint cannot be reached (no `status`), refuses the
 * grant or answers without an access token (with `status`).
 */
export async function requestTokens(init: {
  tokenUrl: string;
  client: OAuth2Auth & { clientId: string };
  grantType: TokenGrantType;
  params: Record<string, string>;
  nowSeconds: number;
  signal?: AbortSignal | undefined;
}): Promise<GrantedTokens & { accessToken: string }> {
  const { tokenUrl, client, grantType } = init;
  const body = new URLSearchParams({ grant_type: grantType, ...init.params });
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
      ...(init.signal ? { signal: init.signal } : {}),
    });
    payload = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  } catch (cause) {
    throw new CredentialExchangeError({
      tokenUrl,
      grantType,
      detail: 'the endpoint could not be reached',
      cause,
    });
  }
  const accessToken = payload.access_token;
  if (!response.ok || typeof accessToken !== 'string') {
    const reason = typeof payload.error === 'string' ? payload.error : 'no access_token';
    throw new CredentialExchangeError({
      tokenUrl,
      grantType,
      status: response.status,
      detail: `HTTP ${response.status}, ${reason}`,
    });
  }
  const tokens: GrantedTokens & { accessToken: string } = { accessToken };
  if (typeof payload.refresh_token === 'string') tokens.refreshToken = payload.refresh_token;
  if (typeof payload.expires_in === 'number') {
    tokens.expiresIn = payload.expires_in;
    tokens.expiresAt = init.nowSeconds + payload.expires_in;
  }
  return tokens;
}
