import type { AuthConfig, AuthCredential, AuthScheme, ToolContext } from '@adk/core';

import type { SchemaObject, SecurityRequirement } from '../spec/types';
import type { BuiltRequest } from './build-request';

/**
 * Credentials by security scheme name (the keys of `components.securitySchemes`): an API key
 * (`{ authType: 'apiKey', apiKey }`), an HTTP token or user and password
 * (`{ authType: 'http', http: { scheme: 'bearer', credentials: { token } } }`), or for OAuth2 and
 * OpenID Connect the client registration (`{ authType: 'oauth2', oauth2: { clientId, clientSecret } }`)
 * from which the user is asked to sign in.
 */
export type OpenApiCredentials = Readonly<Record<string, AuthCredential>>;

/** The outcome of authorising one call: go on, or wait for the user's credential. */
export type Authorization = { ok: true } | { ok: false; pending: Record<string, unknown> };

/**
 * Apply the operation's security to `request`. A requirement the given credentials satisfy is
 * used as is; otherwise each scheme's credential comes from core's credential flow
 * (`context.getCredential`, and when there is none, `context.requestCredential`, which pauses the
 * call until the user answers, then runs it again). An empty requirement (`{}`) makes auth optional.
 */
export async function authorize(
  security: readonly SecurityRequirement[],
  schemes: Readonly<Record<string, SchemaObject>>,
  credentials: OpenApiCredentials,
  context: ToolContext,
  request: BuiltRequest,
): Promise<Authorization> {
  if (security.length === 0) return { ok: true };
  const usable = security.filter((requirement) =>
    Object.keys(requirement).every((name) => schemes[name] !== undefined),
  );
  const satisfied = usable.find((requirement) =>
    Object.keys(requirement).every((name) => hasStatic(schemes[name]!, credentials[name])),
  );
  const optional = security.some((requirement) => Object.keys(requirement).length === 0);
  if (!satisfied && optional) return { ok: true };
  const chosen = satisfied ?? usable[0];
  if (!chosen) return { ok: true };
  for (const name of Object.keys(chosen)) {
    const scheme = schemes[name]!;
    const given = credentials[name];
    let credential = given && hasStatic(scheme, given) ? given : undefined;
    if (!credential) {
      const config: AuthConfig = {
        authScheme: scheme as unknown as AuthScheme,
        ...(given ? { rawAuthCredential: given } : {}),
      };
      credential = await context.getCredential(config);
      if (!credential) {
        context.requestCredential(config);
        return {
          ok: false,
          pending: {
            status: 'AUTH_REQUIRED',
            message: `Waiting for the user to provide the "${name}" credential.`,
          },
        };
      }
    }
    apply(scheme, credential, request);
  }
  return { ok: true };
}

function hasStatic(scheme: SchemaObject, credential: AuthCredential | undefined): boolean {
  if (!credential) return false;
  if (scheme.type === 'apiKey') return typeof credential.apiKey === 'string';
  if (scheme.type === 'http') {
    const secret = credential.http?.credentials;
    return !!(secret?.token ?? secret?.username);
  }
  return typeof credential.oauth2?.accessToken === 'string';
}

function apply(scheme: SchemaObject, credential: AuthCredential, request: BuiltRequest): void {
  const token =
    credential.http?.credentials.token ?? credential.oauth2?.accessToken ?? credential.apiKey;
  if (scheme.type === 'apiKey') {
    const value = credential.apiKey ?? token ?? '';
    const name = String(scheme.name);
    if (scheme.in === 'query') request.url.searchParams.set(name, value);
    else if (scheme.in === 'cookie') {
      const cookie = request.headers.get('cookie');
      const pair = `${name}=${encodeURIComponent(value)}`;
      request.headers.set('cookie', cookie ? `${cookie}; ${pair}` : pair);
    } else request.headers.set(name, value);
    return;
  }
  if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') {
    const { username = '', password = '' } = credential.http?.credentials ?? {};
    request.headers.set(
      'authorization',
      `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
    );
    return;
  }
  request.headers.set('authorization', `Bearer ${token ?? ''}`);
}
