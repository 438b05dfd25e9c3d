import type { A2aUserIdResolver, AgentCard } from '@adk/a2a';
import type { RunConfig } from '@adk/core';

/** Default path prefix of the A2A routes: app `x` is served at `/a2a/x`, as `adk api_server --a2a`. */
export const DEFAULT_A2A_BASE_PATH = '/a2a';

/**
 * Settings of the A2A routes of {@link createAdkServer} (`a2a: true` takes every default).
 *
 * Each app is an A2A agent at `<basePath>/<app>`: the JSON-RPC endpoint is `POST <basePath>/<app>`,
 * its card `GET <basePath>/<app>/.well-known/agent-card.json` (and the older `agent.json`).
 */
export interface AdkServerA2aOptions {
  /** Path prefix of the A2A routes (default `/a2a`). */
  basePath?: string;
  /**
   * Absolute URL clients reach this server's root at, behind a reverse proxy (e.g.
   * `https://agents.example.com` or `https://example.com/adk` for a proxy that strips `/adk`):
   * each card then names `<publicUrl><basePath>/<app>`, whatever the request's `Host` says.
   * Default: the request's origin.
   */
  publicUrl?: string;
  /**
   * A2A 1.0 card fields to set or override, by app name (`supportedInterfaces` defaults to the
   * app's A2A endpoints).
   */
  agentCards?: Record<string, Partial<AgentCard>>;
  /** The ADK user id of a request (default `A2A_USER_<contextId>`, as the Python ADK). */
  userId?: A2aUserIdResolver;
  /** Run settings of every A2A run (default: not streamed, core's limits). */
  runConfig?: Partial<RunConfig>;
  /** Tasks kept per app for `tasks/get` and `tasks/list` (default 10,000). */
  maxTasks?: number;
}

/** `basePath` without a trailing slash, starting with one. */
export function normalizeA2aBasePath(basePath: string | undefined): string {
  const trimmed = (basePath ?? DEFAULT_A2A_BASE_PATH).replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
