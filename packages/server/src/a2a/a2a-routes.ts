import { createA2aServer, securityCardFields, type A2aServerApp, type AgentCard } from '@adk/a2a';
import { InvalidArgumentError, Runner } from '@adk/core';
import type { Hono } from 'hono';

import type { ServerContext } from '../app/server-context';
import { normalizeA2aBasePath, type AdkServerA2aOptions } from './a2a-options';

/** Options of {@link mountA2aRoutes}. */
export interface MountA2aOptions {
  settings: AdkServerA2aOptions;
  /** Largest request body, the server's limit. */
  maxBodyBytes: number;
  /** Whether the server requires a bearer token (the cards then declare it). */
  bearerAuth: boolean;
}

/** The mounted A2A servers, to close with the server. */
export interface MountedA2a {
  /** The path prefix of the A2A routes. */
  basePath: string;
  close(): Promise<void>;
}

/**
 * Serve every app of the server over A2A: `POST <basePath>/<app>` (JSON-RPC) and its card at
 * `<basePath>/<app>/.well-known/agent-card.json`. The A2A server of each app runs on the app's own
 * runner, so an A2A context is an ordinary session of the app (visible through the session
 * routes, under the user the `userId` resolver gives).
 *
 * @throws InvalidArgumentError when an app's runner is not a `Runner` of `@adk/core`, the base
 *   path is `/`, or `publicUrl` is not an absolute http(s) URL without query or fragment.
 */
export function mountA2aRoutes(
  app: Hono,
  ctx: ServerContext,
  options: MountA2aOptions,
): MountedA2a {
  const basePath = normalizeA2aBasePath(options.settings.basePath);
  if (basePath === '/') {
    throw new InvalidArgumentError({
      message: 'The A2A base path cannot be "/": it would shadow the API routes.',
      argument: 'a2a.basePath',
    });
  }
  const { publicUrl } = options.settings;
  const servers: A2aServerApp[] = [];
  for (const name of ctx.appNames()) {
    const { runner } = ctx.app(name);
    if (!(runner instanceof Runner)) {
      throw new InvalidArgumentError({
        message: `App "${name}" cannot be served over A2A: its runner is not a Runner of @adk/core.`,
        argument: 'apps',
      });
    }
    const appPath = `${basePath}/${encodeURIComponent(name)}`;
    const overrides = options.settings.agentCards?.[name];
    const agentCard = { ...(options.bearerAuth ? bearerSecurity : {}), ...overrides };
    const server = createA2aServer({
      runner,
      rpcPath: '/',
      // The card names the endpoint as clients reach it: `<origin or publicUrl><basePath>/<app>`.
      ...(publicUrl === undefined
        ? { basePath: appPath }
        : { publicUrl: `${publicUrl.replace(/\/+$/, '')}${appPath}` }),
      maxBodyBytes: options.maxBodyBytes,
      ...(Object.keys(agentCard).length > 0 ? { agentCard } : {}),
      ...(options.settings.userId ? { userId: options.settings.userId } : {}),
      ...(options.settings.runConfig ? { runConfig: options.settings.runConfig } : {}),
      ...(options.settings.maxTasks !== undefined ? { maxTasks: options.settings.maxTasks } : {}),
    });
    servers.push(server);
    app.route(appPath, server);
  }
  return {
    basePath,
    async close() {
      await Promise.all(servers.map((server) => server.close()));
    },
  };
}

/** What a card declares when the server requires `Authorization: Bearer <token>`. */
/** What the card says of the server's bearer token (the server checks it before these routes). */
const bearerSecurity: Partial<AgentCard> = securityCardFields({ bearer: () => undefined });
