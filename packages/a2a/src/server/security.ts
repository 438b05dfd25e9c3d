import { timingSafeEqual } from 'node:crypto';

import type { SecurityRequirement, SecurityScheme } from '@a2a-js/sdk';

/** Who a verified credential belongs to: a user name, or `undefined` to refuse the credential. */
export type A2aCredentialVerifier = (
  credential: string,
) => string | undefined | Promise<string | undefined>;

/**
 * The authentication an A2A server requires, published in its agent card (`securitySchemes`,
 * `securityRequirements`) and enforced on every protocol request (the card itself stays public).
 * A request must satisfy one of the configured schemes; otherwise it gets HTTP 401 and no run
 * starts. The verified user name scopes the caller's tasks (`tasks/list`, `tasks/get`) and is
 * passed to `userId`.
 */
export interface A2aSecurityOptions {
  /** `Authorization: Bearer <token>`: a fixed token, or a function naming the token's user. */
  bearer?: string | A2aCredentialVerifier;
  /** An API key in a header: its name (default `X-API-Key`) and a fixed key or a verifier. */
  apiKey?: { header?: string; key: string | A2aCredentialVerifier };
}

/** What a request proved: the user it authenticated as. */
export interface A2aAuthentication {
  userName: string;
}

/** The card fields announcing `security`. */
export function securityCardFields(security: A2aSecurityOptions): {
  securitySchemes: Record<string, SecurityScheme>;
  securityRequirements: SecurityRequirement[];
} {
  const securitySchemes: Record<string, SecurityScheme> = {};
  const securityRequirements: SecurityRequirement[] = [];
  if (security.bearer !== undefined) {
    securitySchemes.bearer = {
      scheme: {
        $case: 'httpAuthSecurityScheme',
        value: { description: 'A bearer token.', scheme: 'bearer', bearerFormat: '' },
      },
    };
    securityRequirements.push({ schemes: { bearer: { list: [] } } });
  }
  if (security.apiKey !== undefined) {
    securitySchemes.apiKey = {
      scheme: {
        $case: 'apiKeySecurityScheme',
        value: {
          description: 'An API key.',
          location: 'header',
          name: security.apiKey.header ?? 'X-API-Key',
        },
      },
    };
    securityRequirements.push({ schemes: { apiKey: { list: [] } } });
  }
  return { securitySchemes, securityRequirements };
}

/**
 * Check the request's credentials against `security`: the authenticated user, or `undefined`
 * when no configured scheme is satisfied.
 */
export async function authenticate(
  security: A2aSecurityOptions,
  headers: Headers,
): Promise<A2aAuthentication | undefined> {
  if (security.bearer !== undefined) {
    const match = /^Bearer\s+(.+)$/i.exec(headers.get('authorization') ?? '');
    if (match) {
      const user = await verify(security.bearer, match[1]!.trim(), 'bearer');
      if (user !== undefined) return { userName: user };
    }
  }
  if (security.apiKey !== undefined) {
    const key = headers.get(security.apiKey.header ?? 'X-API-Key');
    if (key) {
      const user = await verify(security.apiKey.key, key, 'api-key');
      if (user !== undefined) return { userName: user };
    }
  }
  return undefined;
}

async function verify(
  expected: string | A2aCredentialVerifier,
  given: string,
  fixedUser: string,
): Promise<string | undefined> {
  if (typeof expected === 'function') return await expected(given);
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b) ? fixedUser : undefined;
}
