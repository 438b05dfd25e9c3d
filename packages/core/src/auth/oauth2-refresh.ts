import { CredentialExchangeError } from '../errors/credential-exchange-error';
import type { AuthConfig } from './auth-config';
import type { AuthCredential } from './auth-credential';
import { requestTokens, tokenUrlOf } from './oauth2-token-request';

/**
 * Seconds before `expiresAt` from which an access token counts as expired, so it does not lapse
 * between the check and the tool's request (the margin the official ADKs' OAuth2 library uses).
 */
export const ACCESS_TOKEN_EXPIRY_MARGIN_SECONDS = 60;

/** The current time in seconds since the epoch. */
function nowInSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * True when `credential` holds an OAuth2 access token whose `expiresAt` (seconds since the epoch)
 * is less than {@link ACCESS_TOKEN_EXPIRY_MARGIN_SECONDS} after `nowSeconds` (default: now). A
 * token without `expiresAt` never counts as expired.
 */
export function isAccessTokenExpired(
  credential: AuthCredential,
  nowSeconds: number = nowInSeconds(),
): boolean {
  const oauth2 = credential.oauth2;
  return (
    oauth2?.accessToken !== undefined &&
    typeof oauth2.expiresAt === 'number' &&
    oauth2.expiresAt - ACCESS_TOKEN_EXPIRY_MARGIN_SECONDS <= nowSeconds
  );
}

/**
 * True when `credential`'s access token has expired (see {@link isAccessTokenExpired}), it holds
 * a refresh token, and `config` (the tool's own, with its client registration) says where and as
 * which client to refresh it.
 */
export function canRefreshAccessToken(
  config: AuthConfig,
  credential: AuthCredential,
  nowSeconds: number = nowInSeconds(),
): boolean {
  return (
    credential.oauth2?.refreshToken !== undefined &&
    isAccessTokenExpired(credential, nowSeconds) &&
    tokenUrlOf(config) !== undefined &&
    config.rawAuthCredential?.oauth2?.clientId !== undefined
  );
}

/**
 * Refresh the expired access token of `credential` at the token endpoint of `config` (RFC 6749
 * §6, `grant_type=refresh_token`), authenticating the client of `config.rawAuthCredential` as
 * the code exchange does. Returns the credential with the new `accessToken`, `expiresIn` and
 * `expiresAt` (from `options.nowSeconds`, default now), and the new `refreshToken` when the
 * endpoint rotated it (else the old one).
 *
 * @throws CredentialExchangeError (`grantType` `refresh_token`) when the endpoint cannot be
 * reached (no `status`), refuses the refresh token, or answers without an access token.
 */
export async function refreshAccessToken(
  config: AuthConfig,
  credential: AuthCredential,
  options: { signal?: AbortSignal; nowSeconds?: number } = {},
): Promise<AuthCredential> {
  const tokenUrl = tokenUrlOf(config);
  const client = config.rawAuthCredential?.oauth2;
  const clientId = client?.clientId;
  const refreshToken = credential.oauth2?.refreshToken;
  if (!tokenUrl || !clientId || !refreshToken) {
    throw new CredentialExchangeError({
      tokenUrl: tokenUrl ?? '(none)',
      grantType: 'refresh_token',
      detail:
        'the scheme has no token URL, the config no client id, or the credential no refresh token',
    });
  }
  const tokens = await requestTokens({
    tokenUrl,
    client: { ...client, clientId },
    grantType: 'refresh_token',
    params: { refresh_token: refreshToken },
    nowSeconds: options.nowSeconds ?? nowInSeconds(),
    signal: options.signal,
  });
  const { expiresIn: _oldLifetime, expiresAt: _oldExpiry, ...rest } = credential.oauth2 ?? {};
  return { ...credential, oauth2: { ...rest, ...tokens } };
}
