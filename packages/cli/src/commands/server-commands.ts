import { resolve } from 'node:path';

import { isWebUiBuilt } from '@adk/server';
import type { TimestampUnit } from '@adk/server';

import { loadDotEnv } from '../dot-env';

import { UsageError } from '../errors';
import { SESSION_CACHE_OPTION, sessionCacheBytes } from '../session-cache';
import { stringOption, type CommandInput, type CommandModule } from './command';
import { serve } from './serve';
import { SERVICE_OPTIONS } from './service-options';
import { parseQueues } from './worker';

const AGENT_CARD = '/.well-known/agent-card.json';

const SERVER_OPTIONS: CommandModule['options'] = {
  port: {
    type: 'string',
    value: 'N',
    description: 'Port (default: the PORT variable, else 8000; 0 picks a free one)',
  },
  host: { type: 'string', value: 'HOST', description: 'Interface (default 127.0.0.1)' },
  ...SERVICE_OPTIONS,
  session_cache_mib: SESSION_CACHE_OPTION,
  memory_embedding_model: {
    type: 'string',
    value: 'MODEL',
    description:
      'Search memory by meaning too: gemini-embedding-001 or text-embedding-3-small (installed provider; @N for N dimensions)',
  },
  memory_extraction_model: {
    type: 'string',
    value: 'MODEL',
    description:
      'Extract facts about the user from each finished session with MODEL, in the background (needs --memory_embedding_model)',
  },
  allow_origins: {
    type: 'string',
    multiple: true,
    value: 'ORIGIN',
    description: 'Origin allowed to call the API from a browser (repeatable; regex:... ok)',
  },
  token: {
    type: 'string',
    value: 'T',
    description: 'Require "Authorization: Bearer T" (default: ADK_API_TOKEN if set)',
  },
  timestamp_unit: {
    type: 'string',
    value: 'UNIT',
    description:
      'seconds (default, as the Python server; what the ADK web UI renders) or milliseconds',
  },
  a2a: {
    type: 'boolean',
    description: 'Serve every app over A2A too: card at /a2a/<app>/.well-known/agent-card.json',
  },
  'queue-url': {
    type: 'string',
    value: 'URL',
    description:
      'Background jobs on redis://… (BullMQ) or postgres://… (graphile-worker), run by adk worker (default ADK_QUEUE_URL, else SQLite beside the sessions, run in this process)',
  },
  'queue-namespace': {
    type: 'string',
    value: 'NAME',
    description: "BullMQ's key prefix or graphile-worker's schema (with --queue-url)",
  },
  'in-process-worker': {
    type: 'boolean',
    description: 'Run the jobs of --queue-url in this process too (always on without it)',
  },
  'shutdown-timeout': {
    type: 'string',
    value: 'S',
    description:
      'On SIGTERM, stop taking runs and give those in flight S seconds to finish before stopping them (default 25)',
  },
  queue: {
    type: 'string',
    multiple: true,
    value: 'name=N',
    description: 'Concurrency of a queue in the in-process worker (repeatable; default default=5)',
  },
};

const FOLDER_DETAILS = `Each sub-folder of agents_dir with an agent.ts / index.ts (or .js), and each agent file in it,
is one app named after it. A file that exports no agent is skipped with a warning.`;

async function startServer(web: boolean, { values, positionals, env }: CommandInput) {
  const option = (name: string) => stringOption(values, name);
  const unit = option('timestamp_unit');
  if (unit !== undefined && unit !== 'seconds' && unit !== 'milliseconds') {
    throw new UsageError(`Invalid --timestamp_unit: ${unit} (use seconds or milliseconds)`);
  }
  const rawPort = option('port') ?? env.PORT;
  const port = rawPort === undefined || rawPort === '' ? 8000 : Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new UsageError(
      `Invalid ${option('port') === undefined ? 'PORT variable' : '--port'}: ${String(rawPort)}`,
    );
  }
  loadDotEnv(resolve(positionals[0] ?? '.'), env);
  const token = option('token') ?? env.ADK_API_TOKEN;
  const rawShutdown = option('shutdown-timeout') ?? '25';
  const shutdownSeconds = Number(rawShutdown);
  if (!Number.isFinite(shutdownSeconds) || shutdownSeconds < 0) {
    throw new UsageError(`Invalid --shutdown-timeout: ${rawShutdown} (seconds, >= 0)`);
  }
  const queueUrl = option('queue-url') ?? (env.ADK_QUEUE_URL || undefined);
  const queueNamespace = option('queue-namespace');
  const queues = parseQueues(values.queue as string[] | undefined);
  const origins = (values.allow_origins as string[] | undefined) ?? [];
  const server = await serve({
    agentsDir: positionals[0] ?? '.',
    port,
    host: option('host') ?? '127.0.0.1',
    web,
    allowOrigins: origins.flatMap((origin) => origin.split(',')).filter(Boolean),
    ...(option('session_service_uri') ? { sessionServiceUri: option('session_service_uri')! } : {}),
    sessionCacheBytes: sessionCacheBytes(option('session_cache_mib')),
    ...(option('artifact_service_uri')
      ? { artifactServiceUri: option('artifact_service_uri')! }
      : {}),
    ...(option('memory_service_uri') ? { memoryServiceUri: option('memory_service_uri')! } : {}),
    ...(option('memory_embedding_model')
      ? { memoryEmbeddingModel: option('memory_embedding_model')! }
      : {}),
    ...(option('memory_extraction_model')
      ? { memoryExtractionModel: option('memory_extraction_model')! }
      : {}),
    ...(token ? { token } : {}),
    ...(unit ? { timestampUnit: unit as TimestampUnit } : {}),
    ...(values.a2a === true ? { a2a: true } : {}),
    ...(queueUrl ? { queueUrl } : {}),
    ...(queueNamespace ? { queueNamespace } : {}),
    ...(values['in-process-worker'] === true ? { inProcessWorker: true } : {}),
    ...(queues ? { queues } : {}),
  });
  process.stdout.write(
    `ADK ${web ? 'web' : 'API server'} serving ${server.apps.join(', ') || 'no apps'} on ${server.url}\n`,
  );
  process.stdout.write(
    `Background jobs: ${server.jobs}, ${server.jobWorker ? `run in this process (${server.jobWorker})` : 'run by adk worker processes'}\n`,
  );
  process.stdout.write(`Memory: ${server.memory}\n`);
  if (web) process.stdout.write(`Web UI: ${server.url}/dev-ui/ (also at ${server.url}/)\n`);
  if (web && !isWebUiBuilt()) {
    process.stderr.write(
      'warning: the web UI is not built (a source checkout): run "pnpm --filter @adk/web build"; the API works meanwhile.\n',
    );
  }
  if (values.a2a === true) {
    process.stdout.write(`A2A agents: ${server.url}/a2a/<app> (card at /a2a/<app>${AGENT_CARD})\n`);
  }
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  // SIGTERM (a rolling deploy, an orchestrator): drain, then stop. SIGINT (Ctrl-C): stop now.
  const drain = () => {
    void server.shutdown({ deadlineMs: shutdownSeconds * 1000 }).then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', drain);
  return await new Promise<number>(() => undefined);
}

/** `adk api_server [agents_dir]`: the ADK API for every app of a folder. */
export const apiServerCommand: CommandModule = {
  name: 'api_server',
  args: '[agents_dir] [options]',
  summary: 'Serve a folder of agents over the ADK API (default folder: the current one).',
  details: FOLDER_DETAILS,
  options: SERVER_OPTIONS,
  run: (input) => startServer(false, input),
};

/** `adk web [agents_dir]`: the API plus the web UI at `/`. */
export const webCommand: CommandModule = {
  name: 'web',
  args: '[agents_dir] [options]',
  summary: 'The same as api_server, plus the web UI at / (chat, events, traces, state, artifacts).',
  details: FOLDER_DETAILS,
  options: SERVER_OPTIONS,
  run: (input) => startServer(true, input),
};
