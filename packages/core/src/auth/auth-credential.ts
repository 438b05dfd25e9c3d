/**
 * Credentials, in the JSON shape of the official ADKs (camelCase, as adk-js and the ADK web UI
 * exchange them), so a client answers our credential requests the way it answers theirs.
 */

/** The kind of an {@link AuthCredential}. */
export type AuthCredentialType = 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'serviceAccount';

/** The secret part of an HTTP credential: a bearer token, or a user name and password (basic). */
export interface HttpCredentials {
  username?: string;
  password?: string;
  token?: string;
}

/** An HTTP authentication credential (`Authorization: <scheme> ...`). */
export interface HttpAuth {
  /** `bearer`, `basic`, or another IANA HTTP authentication scheme. */
  scheme: string;
  credentials: HttpCredentials;
}

/**
 * OAuth 2.0 (and OpenID Connect) data: the client's registration before the flow, the authorization
 * request and response during it, the tokens after it.
 */
export interface OAuth2Auth {
  clientId?: string;
  clientSecret?: string;
  /** The URL the user opens to consent (with `state`). */
  authUri?: string;
  state?: string;
  redirectUri?: string;
  /** The full callback URL the provider redirected to (holds `code` and `state`). */
  authResponseUri?: string;
  authCode?: string;
  accessToken?: string;
  refreshToken?: string;
  /** Expiry of `accessToken`, in seconds since the epoch. */
  expiresAt?: number;
  expiresIn?: number;
  audience?: string;
  tokenEndpointAuthMethod?: string;
}

/**
 * A credential a tool uses to call a protected resource.
 *
 * @example
 * ```ts
 * const bearer: AuthCredential = { authType: 'http', http: { scheme: 'bearer', credentials: { token } } };
 * ```
 */
export interface AuthCredential {
  authType: AuthCredentialType;
  /** Reference to a credential held elsewhere (a secret manager entry). */
  resourceRef?: string;
  apiKey?: string;
  http?: HttpAuth;
  oauth2?: OAuth2Auth;
  /** A service account's key or settings, as the provider defines them. */
  serviceAccount?: Record<string, unknown>;
}

const CREDENTIAL_TYPES: ReadonlySet<string> = new Set([
  'apiKey',
  'http',
  'oauth2',
  'openIdConnect',
  'serviceAccount',
]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * `value` as an {@link AuthCredential} when it is one a tool can use (an API key, an HTTP token or
 * user name, OAuth2 tokens or an authorization code or callback URL, a service account), else
 * `undefined`. For OAuth2 and OpenID Connect, a missing `authCode` is read from the `code`
 * parameter of `authResponseUri` (what the ADK web UI sends back). Returns a copy.
 */
export function parseAuthCredential(value: unknown): AuthCredential | undefined {
  if (!isRecord(value) || typeof value.authType !== 'string') return undefined;
  if (!CREDENTIAL_TYPES.has(value.authType)) return undefined;
  const credential = structuredClone(value) as unknown as AuthCredential;
  switch (credential.authType) {
    case 'apiKey':
      return typeof credential.apiKey === 'string' && credential.apiKey !== ''
        ? credential
        : undefined;
    case 'http': {
      const secret = credential.http?.credentials;
      return isRecord(secret) &&
        (typeof secret.token === 'string' || typeof secret.username === 'string')
        ? credential
        : undefined;
    }
    case 'oauth2':
    case 'openIdConnect': {
      const oauth2 = credential.oauth2;
      if (!isRecord(oauth2)) return undefined;
      if (oauth2.authCode === undefined && typeof oauth2.authResponseUri === 'string') {
        const code = codeOf(oauth2.authResponseUri);
        if (code !== undefined) oauth2.authCode = code;
      }
      return typeof oauth2.accessToken === 'string' || typeof oauth2.authCode === 'string'
        ? credential
        : undefined;
    }
    case 'serviceAccount':
      return isRecord(credential.serviceAccount) ? credential : undefined;
  }
}

function codeOf(uri: string): string | undefined {
  try {
    return new URL(uri).searchParams.get('code') ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * A copy of `credential` without its secrets: what may be written into an event. Keeps the type,
 * the resource reference, the HTTP scheme and the public OAuth2 registration and authorization
 * request (client id, auth URI, state, redirect URI, audience); drops API keys, passwords, tokens,
 * authorization codes, client secrets and service accounts.
 */
export function publicPartOfCredential(credential: AuthCredential): AuthCredential {
  const copy: AuthCredential = { authType: credential.authType };
  if (credential.resourceRef !== undefined) copy.resourceRef = credential.resourceRef;
  if (credential.http) copy.http = { scheme: credential.http.scheme, credentials: {} };
  const oauth2 = credential.oauth2;
  if (oauth2) {
    const kept: OAuth2Auth = {};
    for (const key of PUBLIC_OAUTH2_KEYS) if (oauth2[key] !== undefined) kept[key] = oauth2[key];
    copy.oauth2 = kept;
  }
  return copy;
}

const PUBLIC_OAUTH2_KEYS = [
  'clientId',
  'authUri',
  'state',
  'redirectUri',
  'audience',
  'tokenEndpointAuthMethod',
] as const satisfies readonly (keyof OAuth2Auth)[];
