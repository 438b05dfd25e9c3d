import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { serve } from '@hono/node-server';
import type { Hono } from 'hono';

import { SSE_TAKE_OVER, takeOverSseResponse } from '../run/event-stream';

/** Options of {@link listen}. */
export interface ListenOptions {
  /** Port; 0 picks a free one (default 8000). */
  port?: number;
  /** Interface to bind (default `127.0.0.1`). */
  host?: string;
}

/** A listening server. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8000`. */
  url: string;
  port: number;
  /** Stop accepting connections, end open ones, and close the app when it has a `close()`. */
  close(): Promise<void>;
  /**
   * Graceful shutdown (SIGTERM): the app's `drain` (new runs refused, runs in flight given up to
   * `deadlineMs` to finish, the rest aborted with a final error frame), then {@link close}.
   */
  shutdown(options?: { deadlineMs?: number }): Promise<void>;
}

/**
 * Serve a Hono app (usually the one from `createAdkServer`) with `@hono/node-server`, with its
 * WebSocket route (`/run_live`) when it has one.
 *
 * @example
 * ```ts
 * const server = await listen(app, { port: 0 });
 * await fetch(`${server.url}/health`);
 * await server.close();
 * ```
 */
export function listen(
  app: Hono & {
    close?: () => Promise<void>;
    injectWebSocket?: (server: Server) => void;
    closeWebSockets?: () => void;
    drain?: (options?: { deadlineMs?: number }) => Promise<unknown>;
  },
  options: ListenOptions = {},
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    // The SSE routes' frames go straight to Node's response once the app has answered (see
    // `takeOverSseResponse`): the headers every middleware added are in that answer.
    const fetch = (request: Request, env: { outgoing?: unknown }) => {
      const response = app.fetch(request, { ...env, [SSE_TAKE_OVER]: true }) as
        Response | Promise<Response>;
      return response instanceof Promise
        ? response.then((done) => takeOverSseResponse(done, env.outgoing))
        : takeOverSseResponse(response, env.outgoing);
    };
    const server = serve(
      { fetch, port: options.port ?? 8000, hostname: host },
      (info: AddressInfo) => {
        const urlHost = host.includes(':') ? `[${host}]` : host;
        const close = () =>
          new Promise<void>((done, fail) => {
            app.closeWebSockets?.();
            server.close((error) => (error ? fail(error) : done()));
            if ('closeAllConnections' in server) server.closeAllConnections();
          }).then(() => app.close?.());
        resolve({
          url: `http://${urlHost === '0.0.0.0' ? '127.0.0.1' : urlHost}:${info.port}`,
          port: info.port,
          close,
          shutdown: async (shutdownOptions = {}) => {
            await app.drain?.(shutdownOptions);
            await close();
          },
        });
      },
    );
    // `GET /run_live` upgrades on this server (an `AdkServerApp` has the hook).
    app.injectWebSocket?.(server as Server);
    server.once('error', reject);
  });
}
