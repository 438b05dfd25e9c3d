import type { MiddlewareHandler } from 'hono';

import { httpError } from './http-error';

/** Splits `allowOrigins` into literal origins and one combined `regex:` pattern. */
export function originMatcher(allowOrigins: readonly string[]): (origin: string) => boolean {
  const literals = new Set<string>();
  const patterns: string[] = [];
  for (const entry of allowOrigins) {
    if (entry.startsWith('regex:')) {
      if (entry.length > 'regex:'.length) patterns.push(entry.slice('regex:'.length));
    } else literals.add(entry);
  }
  const regex = patterns.length > 0 ? new RegExp(`^(?:${patterns.join('|')})$`) : undefined;
  return (origin) => literals.has('*') || literals.has(origin) || (regex?.test(origin) ?? false);
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Refuse (403) requests that change state when a browser sends them from another origin that
 * is not allowed: a web page on another site must not drive the agents of a local server.
 */
export function originGuard(isAllowed: (origin: string) => boolean): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (origin === undefined || SAFE_METHODS.has(c.req.method)) return next();
    const url = new URL(c.req.url);
    const host = c.req.header('host') ?? url.host;
    if (origin === `${url.protocol}//${host}` || isAllowed(origin)) return next();
    throw httpError(403, `Origin not allowed: ${origin}`);
  };
}
