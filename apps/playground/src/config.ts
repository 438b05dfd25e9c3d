import { join, resolve } from 'node:path';

/** Which model the playground runs on. */
export type ModelChoice =
  | {
      provider: 'gemini' | 'anthropic' | 'openai';
      model: string;
      /** Provider endpoint override (`GEMINI_BASE_URL`, `ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`). */
      baseURL?: string;
      /** The provider's key from the environment; never printed. */
      apiKey?: string;
    }
  | { provider: 'demo'; model: 'offline-demo' };

/** Everything the playground reads from the environment. */
export interface PlaygroundConfig {
  /** Session store URL: `sqlite:<file>` (default `sqlite:./.adk/playground.db`) or `postgres://...`. */
  sessionUrl: string;
  /** Folder of saved artifacts (`ADK_ARTIFACTS_DIR`, default `./.adk/artifacts`). */
  artifactsDir: string;
  /** The folder the `files` app's MCP filesystem server is confined to (`ADK_SANDBOX_DIR`, default `./.adk/sandbox`). */
  sandboxDir: string;
  port: number;
  host: string;
  model: ModelChoice;
  /** Optional bearer token for the API (`ADK_API_TOKEN`). */
  token: string | undefined;
  /** Origins allowed to call the API from other sites (`ADK_ALLOW_ORIGINS`, comma-separated). */
  allowOrigins: string[];
  /**
   * Serve the apps over A2A at `/a2a/<app>` (default on; `ADK_A2A=0`, `false` or `off` turns it
   * off).
   */
  a2a: boolean;
  /**
   * Unit of timestamps on the wire (`ADK_TIMESTAMP_UNIT`): `seconds` by default, as the Python
   * server sends them, which both the official ADK web UI and the bundled one render right;
   * `milliseconds` for clients of `@google/adk`'s TypeScript server.
   */
  timestampUnit: 'seconds' | 'milliseconds';
  /**
   * Background runs on a queue engine (`ADK_QUEUE_URL`): `redis://…` (BullMQ) or `postgres://…`
   * (graphile-worker), run by `adk worker` processes. Unset: the embedded SQLite job store beside
   * the sessions (`.adk/playground.jobs.db`), run by a worker in the playground's process.
   */
  queueUrl: string | undefined;
  /** BullMQ's key prefix or graphile-worker's schema (`ADK_QUEUE_NAMESPACE`). */
  queueNamespace: string | undefined;
  /**
   * Run the jobs of `queueUrl` in the playground's process too (`ADK_IN_PROCESS_WORKER=1`); always
   * on without `queueUrl`.
   */
  inProcessWorker: boolean;
  /** The folder the playground was started in: `.adk/jobs.db` goes there beside PostgreSQL sessions. */
  baseDir: string;
}

const DEFAULT_MODELS = {
  gemini: 'gemini-2.5-flash',
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-4o-mini',
} as const;

/**
 * Pick the model: `ADK_MODEL` if set, else the first provider with a key, else the offline demo.
 * `<PROVIDER>_BASE_URL` points a provider at another endpoint (a proxy, a local server).
 */
export function chooseModel(env: NodeJS.ProcessEnv): ModelChoice {
  const named = env.ADK_MODEL?.trim();
  const provider: ModelChoice['provider'] =
    env.GEMINI_API_KEY || env.GOOGLE_API_KEY
      ? 'gemini'
      : env.ANTHROPIC_API_KEY
        ? 'anthropic'
        : env.OPENAI_API_KEY
          ? 'openai'
          : 'demo';
  if (named === 'offline-demo' || provider === 'demo')
    return { provider: 'demo', model: 'offline-demo' };
  let chosen: 'gemini' | 'anthropic' | 'openai' = provider;
  if (named?.startsWith('claude')) chosen = 'anthropic';
  else if (named && /^(gpt|o\d|openai\/)/.test(named)) chosen = 'openai';
  else if (named?.startsWith('gemini')) chosen = 'gemini';
  const baseURL = env[`${chosen.toUpperCase()}_BASE_URL`]?.trim();
  const apiKey = {
    gemini: env.GEMINI_API_KEY || env.GOOGLE_API_KEY,
    anthropic: env.ANTHROPIC_API_KEY,
    openai: env.OPENAI_API_KEY,
  }[chosen];
  return {
    provider: chosen,
    model: named || DEFAULT_MODELS[chosen],
    ...(baseURL ? { baseURL } : {}),
    ...(apiKey ? { apiKey } : {}),
  };
}

/** Read the playground's configuration from `env` (default `process.env`). */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): PlaygroundConfig {
  const port = Number(env.PORT ?? 8000);
  return {
    sessionUrl: env.ADK_SESSION_URL?.trim() || `sqlite:${resolve(cwd, '.adk', 'playground.db')}`,
    artifactsDir: resolve(cwd, env.ADK_ARTIFACTS_DIR?.trim() || join('.adk', 'artifacts')),
    sandboxDir: resolve(cwd, env.ADK_SANDBOX_DIR?.trim() || join('.adk', 'sandbox')),
    port: Number.isInteger(port) && port >= 0 ? port : 8000,
    host: env.HOST ?? '127.0.0.1',
    model: chooseModel(env),
    token: env.ADK_API_TOKEN || undefined,
    allowOrigins: (env.ADK_ALLOW_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    a2a: !['0', 'false', 'off', 'no'].includes(env.ADK_A2A?.trim().toLowerCase() ?? ''),
    timestampUnit:
      env.ADK_TIMESTAMP_UNIT?.trim().toLowerCase() === 'milliseconds' ? 'milliseconds' : 'seconds',
    queueUrl: env.ADK_QUEUE_URL?.trim() || undefined,
    queueNamespace: env.ADK_QUEUE_NAMESPACE?.trim() || undefined,
    inProcessWorker: ['1', 'true', 'on', 'yes'].includes(
      env.ADK_IN_PROCESS_WORKER?.trim().toLowerCase() ?? '',
    ),
    baseDir: resolve(cwd),
  };
}
