import type { Server } from 'node:http';

import { createNodeWebSocket } from '@hono/node-ws';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { timingSafeEqual } from 'node:crypto';

import { mountA2aRoutes, type MountedA2a } from '../a2a/a2a-routes';
import { normalizeA2aBasePath } from '../a2a/a2a-options';
import { limitBody } from '../http/body-limit';
import { errorResponse, httpError } from '../http/http-error';
import { originGuard, originMatcher } from '../http/origin-guard';
import {
  artifactRoutes,
  debugRoutes,
  evalRoutes,
  memoryRoutes,
  metaRoutes,
  sessionRoutes,
} from '../routes';
import { jobRoutes } from '../routes/job-routes';
import { liveRoutes } from '../live/live-routes';
import { runRoutes } from '../run';
import { TraceStore } from '../traces';
import { isWebUiBuilt, WEB_UI_NOT_BUILT_PAGE, webUiDir } from '../web-ui';
import { ServerContext } from './server-context';
import type { AdkServerOptions } from './types';
import { mountWebUi } from './web-ui-routes';

/** The Hono app returned by {@link createAdkServer}. */
export type AdkServerApp = Hono & {
  /** Stop recording traces, end the live sockets and close every app's runner. */
  close(): Promise<void>;
  /**
   * Serve `GET /run_live` (WebSocket) on `server`: {@link listen} does it; call it yourself when
   * you serve the app with `@hono/node-server`'s `serve` directly.
   */
  injectWebSocket(server: Server): void;
  /** End every open `/run_live` socket (their runs are aborted). */
  closeWebSockets(): void;
  /**
   * Graceful shutdown, first step: refuse new runs (503, and `/health/ready` answers 503), let
   * the runs in flight finish for up to `deadlineMs` (default 25000), then abort the rest with
   * `SERVER_SHUTTING_DOWN` (their streams end with an error frame of that code; what they stored
   * stays, for `runner.resume` or a reconnect elsewhere). Resolves with the counts.
   */
  drain(options?: { deadlineMs?: number }): Promise<{ finished: number; aborted: number }>;
};

/** Default deadline of a graceful shutdown's wait for runs in flight (ms). */
export const DEFAULT_SHUTDOWN_DEADLINE_MS = 25_000;

const DEFAULT_MAX_BODY = 16 * 1024 * 1024;
/** Paths reachable without the bearer token. */
const PUBLIC_API_PATHS = new Set(['/health', '/health/live', '/health/ready']);
const API_PREFIXES = ['/apps/', '/run', '/list-apps', '/version', '/debug/', '/dev/'];

function hasPrefix(path: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => path === prefix || path.startsWith(prefix));
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Build the ADK API server: the routes of the official ADK API server (`/list-apps`, sessions,
 * `/run`, `/run_sse`, artifacts, debug traces, graphs) on a Hono app, and with `a2a: true` every
 * app over the A2A protocol at `/a2a/<app>`. Listen with
 * `@hono/node-server` (or {@link listen}), or mount it into another Hono app.
 *
 * @example
 * ```ts
 * import { InMemorySessionService, LlmAgent } from '@adk/core';
 * import { createAdkServer, listen } from '@adk/server';
 *
 * const agent = new LlmAgent({ name: 'assistant', model: 'gemini-2.5-flash', instruction: 'Be brief.' });
 * const app = createAdkServer({ apps: { assistant: { agent } }, sessionService: new InMemorySessionService() });
 * const server = await listen(app, { port: 8000 });
 * console.log(`ADK API on ${server.url}`);
 * ```
 */
export function createAdkServer(options: AdkServerOptions): AdkServerApp {
  const traces = new TraceStore({
    maxSessions: options.maxTracedSessions ?? 200,
    ...(options.maxTraceBytes === undefined ? {} : { maxBytes: options.maxTraceBytes }),
  });
  traces.start();
  const ctx = new ServerContext(options, traces);
  const app = new Hono();
  const webSockets = createNodeWebSocket({ app });

  app.onError((error) => errorResponse(error));
  app.notFound((c) => c.json({ detail: `Not found: ${c.req.method} ${c.req.path}` }, 404));

  const allowOrigins = options.allowOrigins ?? [];
  const isAllowed = originMatcher(allowOrigins);
  if (allowOrigins.length > 0) {
    app.use(
      '*',
      cors({
        origin: (origin) => (isAllowed(origin) ? origin : null),
        credentials: true,
        allowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
        allowHeaders: ['Content-Type', 'Authorization', 'Accept'],
      }),
    );
  }
  app.use('*', originGuard(isAllowed));
  const maxSize = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const a2aSettings = options.a2a === true ? {} : options.a2a || undefined;
  // The A2A routes apply the same limit themselves, answering with a JSON-RPC error body.
  const a2aPrefix = a2aSettings ? [`${normalizeA2aBasePath(a2aSettings.basePath)}/`] : [];
  const limit = limitBody({
    maxSize,
    onError: () => {
      throw httpError(413, `The request body is larger than the limit of ${maxSize} bytes.`);
    },
  });
  app.use('*', (c, next) => (hasPrefix(c.req.path, a2aPrefix) ? next() : limit(c, next)));
  if (options.token !== undefined) {
    const token = options.token;
    const protectedPrefixes = [...API_PREFIXES, ...a2aPrefix];
    app.use('*', async (c, next) => {
      if (
        c.req.method === 'OPTIONS' ||
        PUBLIC_API_PATHS.has(c.req.path) ||
        !hasPrefix(c.req.path, protectedPrefixes)
      )
        return next();
      // A browser's WebSocket cannot send headers: `/run_live` also takes the token as the
      // `access_token` query parameter (RFC 6750, section 2.3).
      const presented =
        c.req.header('authorization') ??
        (c.req.path === '/run_live' && c.req.query('access_token')
          ? `Bearer ${c.req.query('access_token')}`
          : undefined);
      if (!tokenMatches(presented, token)) {
        return c.json({ detail: 'Missing or invalid bearer token.' }, 401, {
          'WWW-Authenticate': 'Bearer realm="adk"',
        });
      }
      return next();
    });
  }

  for (const routes of [
    metaRoutes(ctx),
    sessionRoutes(ctx),
    artifactRoutes(ctx),
    memoryRoutes(ctx),
    jobRoutes(ctx),
    runRoutes(ctx),
    liveRoutes(ctx, webSockets.upgradeWebSocket),
    debugRoutes(ctx),
    evalRoutes(ctx),
  ]) {
    app.route('/', routes);
  }
  let a2a: MountedA2a | undefined;
  if (a2aSettings) {
    try {
      a2a = mountA2aRoutes(app, ctx, {
        settings: a2aSettings,
        maxBodyBytes: maxSize,
        bearerAuth: options.token !== undefined,
      });
    } catch (error) {
      traces.stop();
      throw error;
    }
  }
  if (options.webUi) {
    const settings = options.webUi === true ? {} : options.webUi;
    app.get('/web-ui/config', (c) =>
      c.json({
        title: settings.title ?? 'ADK Playground',
        notice: settings.notice ?? null,
        defaultApp: settings.defaultApp ?? null,
      }),
    );
  }
  const staticDir = options.webDir ?? (options.webUi ? webUiDir : undefined);
  if (staticDir !== undefined) {
    const notBuilt = options.webDir === undefined && !isWebUiBuilt();
    mountWebUi(app, staticDir, notBuilt ? WEB_UI_NOT_BUILT_PAGE : undefined);
  }

  let closed: Promise<void> | undefined;
  const closeWebSockets = (): void => {
    for (const client of webSockets.wss.clients) client.terminate();
  };
  return Object.assign(app, {
    injectWebSocket: (server: Server) => webSockets.injectWebSocket(server),
    closeWebSockets,
    drain(drainOptions: { deadlineMs?: number } = {}) {
      return ctx.runs.drain(drainOptions.deadlineMs ?? DEFAULT_SHUTDOWN_DEADLINE_MS);
    },
    close(): Promise<void> {
      closed ??= (async () => {
        closeWebSockets();
        traces.stop();
        await a2a?.close();
        await ctx.close();
      })();
      return closed;
    },
  });
}
