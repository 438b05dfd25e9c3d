import { createHash, randomUUID } from 'node:crypto';
import { publicPartOfCredential, type AuthCredential } from './auth-credential';
import type { AuthScheme } from './auth-scheme';

/**
 * What a tool needs to authenticate, and (once the user answered) the credential it got: the
 * `authConfig` of an `adk_request_credential` call and of its answer, as the official ADKs and the
 * ADK web UI exchange it.
 *
 * @example
 * ```ts
 * const calendarAuth: AuthConfig = {
 *   authScheme: {
 *     type: 'oauth2',
 *     flows: { authorizationCode: { authorizationUrl: 'https://accounts.example.com/auth',
 *       tokenUrl: 'https://accounts.example.com/token', scopes: { calendar: 'Read your calendar' } } },
 *   },
 *   rawAuthCredential: { authType: 'oauth2', oauth2: { clientId: 'my-app' } },
 *   credentialKey: 'calendar',
 * };
 * ```
 */
export interface AuthConfig {
  authScheme: AuthScheme;
  /** What the tool starts from: for OAuth2, the client registration. */
  rawAuthCredential?: AuthCredential;
  /**
   * The usable credential. In a request: the authorization request the client should open (ADK
   * fills `oauth2.authUri` and `state` for OAuth2 and OpenID Connect). In an answer: what the
   * client obtained (an API key, a token, the OAuth2 callback URL or tokens).
   */
  exchangedAuthCredential?: AuthCredential;
  /**
   * The name the credential is saved under in the `CredentialService` (per app and user). Derived
   * from the scheme and the raw credential when omitted; give one to share a credential between
   * tools.
   */
  credentialKey?: string;
}

/**
 * The key `config`'s credential is stored under: `config.credentialKey`, else `adk_<scheme type>_`
 * followed by a digest of the scheme and of the raw credential's stable fields (the same config
 * gives the same key in every process).
 */
export function credentialKeyOf(config: AuthConfig): string {
  if (config.credentialKey) return config.credentialKey;
  const raw = config.rawAuthCredential;
  const stable = raw && {
    ...raw,
    oauth2: raw.oauth2 && { clientId: raw.oauth2.clientId, audience: raw.oauth2.audience },
  };
  const digest = createHash('sha256')
    .update(stableJson({ scheme: config.authScheme, credential: stable }))
    .digest('hex')
    .slice(0, 16);
  return `adk_${config.authScheme.type}_${digest}`;
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${stableJson(record[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The `authConfig` written into an `adk_request_credential` call: the scheme, the credential key,
 * the public part of the raw credential (no client secret, key, password or token), and for
 * OAuth2 and OpenID Connect with a client id the authorization request the client opens
 * (`exchangedAuthCredential.oauth2.authUri` with `state`), unless the tool gave one.
 */
export function authConfigForRequest(config: AuthConfig): AuthConfig {
  const request: AuthConfig = {
    authScheme: structuredClone(config.authScheme),
    credentialKey: credentialKeyOf(config),
  };
  const raw = config.rawAuthCredential;
  if (raw) request.rawAuthCredential = publicPartOfCredential(raw);
  if (config.exchangedAuthCredential) {
    request.exchangedAuthCredential = publicPartOfCredential(config.exchangedAuthCredential);
  } else {
    const authorization = raw && authorizationRequest(config.authScheme, raw);
    if (authorization) request.exchangedAuthCredential = authorization;
  }
  return request;
}

/** The OAuth2 authorization-code request for `scheme`, when it has an authorization URL. */
function authorizationRequest(scheme: AuthScheme, raw: AuthCredential): AuthCredential | undefined {
  const clientId = raw.oauth2?.clientId;
  if (!clientId || raw.oauth2?.authUri) return undefined;
  let endpoint: string | undefined;
  let scopes: string[] = [];
  if (scheme.type === 'oauth2') {
    const flow = scheme.flows.authorizationCode ?? scheme.flows.implicit;
    endpoint = flow?.authorizationUrl;
    scopes = Object.keys(flow?.scopes ?? {});
  } else if (scheme.type === 'openIdConnect' && 'authorizationEndpoint' in scheme) {
    endpoint = scheme.authorizationEndpoint;
    scopes = scheme.scopes ?? ['openid'];
  }
  if (!endpoint) return undefined;
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return undefined;
  }
  const state = randomUUID();
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', clientId);
  if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
  url.searchParams.set('state', state);
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('prompt', 'consent');
  const oauth2: NonNullable<AuthCredential['oauth2']> = { clientId, authUri: url.href, state };
  if (raw.oauth2?.redirectUri) oauth2.redirectUri = raw.oauth2.redirectUri;
  return { authType: raw.authType, oauth2 };
}
