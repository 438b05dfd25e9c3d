import type { AddressInfo } from 'node:net';

import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

/** Options of {@link listenA2a}. */
export interface ListenA2aOptions {
  /** Port; 0 picks a free one (default 9000). */
  port?: number;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
}

/** A listening A2A server. */
export interface RunningA2aServer {
  /** Base URL, e.g. `http://127.0.0.1:9000`. */
  url: string;
  port: number;
  /** Stop accepting connections, end open ones, then close the app (aborting running tasks). */
  close(): Promise<void>;
}

/**
 * Serve an A2A app (from {@link createA2aServer}) over HTTP with `@hono/node-server`.
 *
 * @example
 * ```ts
 * const server = await listenA2a(createA2aServer({ agent }), { port: 0 });
 * const client = await A2aClient.fromUrl(server.url);
 * ```
 */
export function listenA2a(
  app: Hono & { close?: () => Promise<void> },
  options: ListenA2aOptions = {},
): Promise<RunningA2aServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, port: options.port ?? 9000, hostname: host },
      (info: AddressInfo) => {
        const urlHost = host.includes(':') ? `[${host}]` : host;
        resolve({
          url: `http://${urlHost === '0.0.0.0' ? '127.0.0.1' : urlHost}:${info.port}`,
          port: info.port,
          close: async () => {
            await app.close?.();
            await new Promise<void>((done, fail) => {
              server.close((error) => (error ? fail(error) : done()));
              if ('closeAllConnections' in server) server.closeAllConnections();
            });
          },
        });
      },
    );
    server.once('error', reject);
  });
}
