import { InvalidArgumentError } from '@adk/core';

/** Where an A2A server is reached, to name its JSON-RPC endpoint in the agent card. */
export interface A2aEndpointOptions {
  /** Path of the JSON-RPC endpoint within the app (`/` or e.g. `/rpc`). */
  rpcPath: string;
  /** Path prefix the app is mounted under, on the request's origin. */
  basePath?: string;
  /** Absolute URL clients reach the app's root at (a reverse proxy's address). */
  publicUrl?: string;
}

/**
 * Resolves the `url` of the agent card: `publicUrl` + `rpcPath` when a public URL is set (fixed,
 * whatever the request's `Host` says), else the request's origin + `basePath` + `rpcPath`.
 * Built once; `endpointUrl(requestUrl)` gives the card's `url`.
 *
 * @throws InvalidArgumentError when both are given, `publicUrl` is not an absolute http(s) URL
 *   without query or fragment, or `basePath` is not a path.
 */
export function endpointResolver(options: A2aEndpointOptions): (requestUrl: string) => string {
  const { rpcPath } = options;
  if (options.publicUrl !== undefined && options.basePath !== undefined) {
    throw new InvalidArgumentError({
      message:
        'createA2aServer takes `publicUrl` or `basePath`, not both: put the path in `publicUrl`.',
      argument: 'publicUrl',
    });
  }
  if (options.publicUrl !== undefined) {
    const fixed = publicEndpoint(options.publicUrl, rpcPath);
    return () => fixed;
  }
  const prefix = normalizeBasePath(options.basePath ?? '');
  const path = joinPath(prefix, rpcPath);
  return (requestUrl) => `${new URL(requestUrl).origin}${path}`;
}

function publicEndpoint(publicUrl: string, rpcPath: string): string {
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
  return `${url.origin}${joinPath(url.pathname.replace(/\/+$/, ''), rpcPath)}`;
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

/** `prefix` (no trailing slash) + `rpcPath`, as Hono joins a mount path and a route. */
function joinPath(prefix: string, rpcPath: string): string {
  if (rpcPath === '/' || rpcPath === '') return prefix === '' ? '/' : prefix;
  return `${prefix}${rpcPath.startsWith('/') ? '' : '/'}${rpcPath}`;
}
