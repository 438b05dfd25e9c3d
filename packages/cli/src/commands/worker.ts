import { Runner, type BaseAgent } from '@adk/core';
import { JobWorker, publishJobChanges, type JobStore } from '@adk/jobs';

import { UsageError } from '../errors';
import { openJobChangeFeed, openJobStore } from '../services/job-store';
import { parseCommandArgs, type CommandModule } from './command';
import { findApps, loadAgentFile } from '../load-agents';
import {
  SERVER_SESSION_CACHE_BYTES,
  SESSION_CACHE_OPTION,
  sessionCacheBytes,
} from '../session-cache';
import { openSessionStore } from '../session-store';

/** Options of {@link runWorker}. */
export interface WorkerOptions {
  /** Folder of agents, as `adk api_server` reads it: one app per sub-folder or agent file. */
  agentsDir: string;
  /** `redis://…` (BullMQ) or `postgres://…` (graphile-worker, schema `adk_jobs`). */
  queueUrl: string;
  /** BullMQ's key prefix (default `adk`) or graphile-worker's schema (default `adk_jobs`). */
  queueNamespace?: string;
  sessionServiceUri?: string;
  /** Heap each session cache may hold, in bytes (default `SERVER_SESSION_CACHE_MIB`). */
  sessionCacheBytes?: number;
  /** Queues served and their concurrency (default `{ default: 5 }`). */
  queues?: Readonly<Record<string, number>>;
  workerId?: string;
}

/** A running `adk worker`. */
export interface WorkerHandle {
  apps: string[];
  worker: JobWorker;
  store: JobStore;
  /** Stop the worker (runs in flight are given back), then close the stores. */
  close(): Promise<void>;
}

/**
 * Run background jobs for a folder of agents: one runner per app, all sharing the session store,
 * served by a `JobWorker` on the queue engine of `queueUrl` until `close()`.
 */
export async function runWorker(options: WorkerOptions): Promise<WorkerHandle> {
  const store = await openJobStore(options.queueUrl, options.queueNamespace);
  const sessions = await openSessionStore(options.sessionServiceUri, {
    sharedLock: true,
    cacheBytes: options.sessionCacheBytes ?? SERVER_SESSION_CACHE_BYTES,
  });
  const runners: Runner[] = [];
  try {
    for (const [name, file] of findApps(options.agentsDir)) {
      const agent: BaseAgent = await loadAgentFile(file);
      runners.push(
        new Runner({
          appName: name,
          agent,
          sessionService: sessions.service,
          ...(sessions.sessionLock ? { sessionLock: sessions.sessionLock } : {}),
        }),
      );
    }
  } catch (error) {
    await sessions.close();
    await store.close();
    throw error;
  }
  // The servers' job streams learn of this worker's changes at once.
  const changes = await openJobChangeFeed(options.queueUrl).catch(async (error: unknown) => {
    await sessions.close();
    await store.close();
    throw error;
  });
  const stopPublishing = changes ? publishJobChanges(changes) : undefined;
  const worker = new JobWorker({
    store,
    runners,
    queues: options.queues ?? { default: 5 },
    ...(options.workerId ? { workerId: options.workerId } : {}),
  });
  worker.start();
  return {
    apps: runners.map((runner) => runner.appName).sort(),
    worker,
    store,
    close: async () => {
      await worker.stop();
      stopPublishing?.();
      await changes?.close();
      await store.close();
      await sessions.close();
    },
  };
}

/** `--queue name=N` (repeatable) as a queue map. */
export function parseQueues(values: string[] | undefined): Record<string, number> | undefined {
  if (!values || values.length === 0) return undefined;
  const queues: Record<string, number> = {};
  for (const value of values) {
    const [name, count = '1'] = value.split('=');
    const concurrency = Number(count);
    if (!name || !Number.isInteger(concurrency) || concurrency < 1)
      throw new UsageError(`Invalid --queue "${value}": use name=concurrency (e.g. default=5)`);
    queues[name] = concurrency;
  }
  return queues;
}

/** Usage lines of `adk worker` for the help text. */
/** The `adk worker` command: parse its arguments, run until SIGINT or SIGTERM. */
export async function workerCommand(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCommandArgs(workerCommandModule, args);
  return runWorkerCommand(values as WorkerValues, positionals, env);
}

/** The options of `adk worker`, parsed. */
interface WorkerValues {
  'queue-url'?: string | undefined;
  'queue-namespace'?: string | undefined;
  queue?: string[] | undefined;
  session_service_uri?: string | undefined;
  session_cache_mib?: string | undefined;
  worker_id?: string | undefined;
}

/** `adk worker`, as a module of the `adk` command list. */
export const workerCommandModule: CommandModule = {
  name: 'worker',
  args: '[agents_dir] [options]',
  summary:
    'Run background agent jobs from a queue (graphile-worker on PostgreSQL, BullMQ on Redis) for a folder of agents.',
  options: {
    'queue-url': {
      type: 'string',
      value: 'URL',
      description: 'redis://… or postgres://… (default ADK_QUEUE_URL)',
    },
    'queue-namespace': { type: 'string', value: 'NAME', description: 'Namespace of the queues' },
    queue: {
      type: 'string',
      multiple: true,
      value: 'name=N',
      description: 'Concurrency of a queue (repeatable)',
    },
    session_service_uri: {
      type: 'string',
      value: 'URI',
      description: 'Where the sessions live (default in memory)',
    },
    session_cache_mib: SESSION_CACHE_OPTION,
    worker_id: { type: 'string', value: 'ID', description: "This worker's id (default generated)" },
  },
  run: ({ values, positionals, env }) => runWorkerCommand(values as WorkerValues, positionals, env),
};

async function runWorkerCommand(
  values: WorkerValues,
  positionals: string[],
  env: NodeJS.ProcessEnv,
): Promise<number> {
  // Without a queue URL, PostgreSQL sessions hold the jobs too (as adk api_server does).
  const sessions = values.session_service_uri;
  const queueUrl =
    values['queue-url'] ??
    env.ADK_QUEUE_URL ??
    (sessions && /^postgres(ql)?:\/\//.test(sessions) ? sessions : undefined);
  if (!queueUrl) {
    throw new UsageError(
      'adk worker needs --queue-url redis://… or postgres://… (or PostgreSQL sessions, whose database then holds the jobs)',
    );
  }
  const queues = parseQueues(values.queue);
  const handle = await runWorker({
    agentsDir: positionals[0] ?? '.',
    queueUrl,
    ...(values['queue-namespace'] ? { queueNamespace: values['queue-namespace'] } : {}),
    ...(values.session_service_uri ? { sessionServiceUri: values.session_service_uri } : {}),
    sessionCacheBytes: sessionCacheBytes(values.session_cache_mib),
    ...(queues ? { queues } : {}),
    ...(values.worker_id ? { workerId: values.worker_id } : {}),
  });
  process.stdout.write(
    `ADK worker ${handle.worker.workerId} running jobs of ${handle.apps.join(', ') || 'no apps'}\n`,
  );
  const stop = () => void handle.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return new Promise<number>(() => undefined);
}
