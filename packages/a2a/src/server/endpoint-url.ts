import { InvalidArgumentError } from '@adk/core';

/** Where an A2A server is reached, to name its endpoints in the agent card. */
export interface A2aEndpointOptions {
  /** Path prefix the app is mounted under, on the request's origin. */
  basePath?: string;
  /** Absolute URL clients reach the app's root at (a reverse proxy's address). */
  publicUrl?: string;
}

/**
 * Resolves the URLs of the agent card's interfaces: `publicUrl` + path when a public URL is set
 * (fixed, whatever the request's `Host` says), else the request's origin + `basePath` + path.
 * Built once; `endpointUrl(requestUrl, path)` gives the URL of `path` within the app.
 *
 * @throws InvalidArgumentError when both are given, `publicUrl` is not an absolute http(s) URL
 *   without query or fragment, or `basePath` is not a path.
 */
export function endpointResolver(
  options: A2aEndpointOptions,
): (requestUrl: string, path: string) => string {
  if (options.publicUrl !== undefined && options.basePath !== undefined) {
    throw new InvalidArgumentError({
      message:
        'createA2aServer takes `publicUrl` or `basePath`, not both: put the path in `publicUrl`.',
      argument: 'publicUrl',
    });
  }
  if (options.publicUrl !== undefined) {
    const root = publicRoot(options.publicUrl);
    return (_requestUrl, path) => `${root.origin}${joinPath(root.path, path)}`;
  }
  const prefix = normalizeBasePath(options.basePath ?? '');
  return (requestUrl, path) => `${new URL(requestUrl).origin}${joinPath(prefix, path)}`;
}

function publicRoot(publicUrl: string): { origin: string; path: string } {
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    url = new URL('invalid:');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) {
    throw new InvalidArgumentError({
      message: `publicUrl must be an absolute http(s) URL without query or fragment, got "${publicUrl}".`,
      argument: 'publicUrl',
    });
  }
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') };
}

function normalizeBasePath(basePath: string): string {
  if (basePath !== '' && !basePath.startsWith('/')) {
    throw new InvalidArgumentError({
      message: `basePath must start with "/", got "${basePath}".`,
      argument: 'basePath',
    });
  }
  if (/[?#]/.test(basePath) || basePath.startsWith('//')) {
    throw new InvalidArgumentError({
      message: `basePath must be a path (no query, fragment or leading "//"), got "${basePath}".`,
      argument: 'basePath',
    });
  }
  return basePath.replace(/\/+$/, '');
}

/** `prefix` (no trailing slash) + `path`, as Hono joins a mount path and a route. */
function joinPath(prefix: string, path: string): string {
  if (path === '/' || path === '') return prefix === '' ? '/' : prefix;
  return `${prefix}${path.startsWith('/') ? '' : '/'}${path}`;
}
