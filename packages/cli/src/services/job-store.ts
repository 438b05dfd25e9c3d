import { basename, dirname, extname, join, resolve } from 'node:path';

import type { Runner } from '@adk/core';
import {
  JobWorker,
  publishJobChanges,
  SqlJobStore,
  type JobChangeFeed,
  type JobStore,
} from '@adk/jobs';
import { parseDatabaseUrl } from '@adk/session-sql';
import type { ServerJobStore } from '@adk/server';
import { maskDatabaseUrl } from '@adk/sql-kit';
import { sql } from 'kysely';

import { UsageError } from '../errors';
import { openKysely } from './open-kysely';

/** The job store a queue URL names: BullMQ for `redis://`, graphile-worker for `postgres://`. */
export async function openJobStore(url: string, namespace?: string): Promise<JobStore> {
  if (/^rediss?:\/\//.test(url)) {
    const { BullMqJobStore } = await import('@adk/jobs/bullmq');
    return new BullMqJobStore({ url, ...(namespace ? { prefix: namespace } : {}) });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { GraphileJobStore } = await import('@adk/jobs/graphile');
    return new GraphileJobStore({
      connectionString: url,
      ...(namespace ? { schema: namespace } : {}),
    });
  }
  throw new UsageError(`Invalid --queue-url "${url}": use redis://… or postgres://…`);
}

/**
 * The job change feed of a queue URL shared between processes: Redis pub/sub beside BullMQ,
 * PostgreSQL `LISTEN`/`NOTIFY` beside graphile-worker; none for the embedded store (one process).
 */
export async function openJobChangeFeed(url: string): Promise<JobChangeFeed | undefined> {
  if (/^rediss?:\/\//.test(url)) {
    const { RedisJobChangeFeed } = await import('@adk/jobs/bullmq');
    return RedisJobChangeFeed.open({ url });
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { PostgresJobChangeFeed } = await import('@adk/jobs/graphile');
    return PostgresJobChangeFeed.open({ connectionString: url });
  }
  return undefined;
}

/**
 * Where jobs live when no queue URL is given: the embedded job store (`SqlJobStore`) in a sibling
 * file of SQLite sessions (`sessions.db` → `sessions.jobs.db`), in memory beside sessions kept in
 * memory (jobs then live as long as the sessions they write to); beside PostgreSQL sessions, the
 * sessions' own database, through graphile-worker (the URL is returned as is). Sessions in
 * PostgreSQL are shared by every server instance that names them, so their jobs must be too: a
 * job enqueued through one instance is seen, run and cancelled through any other.
 *
 * A sibling file rather than the sessions' own file: the worker claims due jobs every second
 * inside `BEGIN IMMEDIATE`, which takes the file's write lock; in their own file those claims
 * never queue behind (or delay) the session writes of a chat, and deleting the file empties the
 * queue without touching the sessions.
 */
export function defaultJobStoreUrl(
  sessionServiceUri: string | undefined,
  _baseDir?: string,
): string {
  if (!sessionServiceUri || sessionServiceUri.startsWith('memory:')) return 'sqlite::memory:';
  const parsed = parseDatabaseUrl(sessionServiceUri);
  if (parsed.kind === 'sqlite') {
    if (parsed.path === ':memory:') return 'sqlite::memory:';
    const file = resolve(parsed.path);
    const extension = extname(file);
    return `sqlite:${join(dirname(file), `${basename(file, extension)}.jobs${extension || '.db'}`)}`;
  }
  return sessionServiceUri;
}

/**
 * A SQLite file for the embedded `SqlJobStore` in any case: {@link defaultJobStoreUrl} when it is
 * one, else `<baseDir>/.adk/jobs.db` (for what needs the embedded store's leases, such as
 * background memory extraction, beside PostgreSQL sessions).
 */
export function embeddedJobStoreUrl(
  sessionServiceUri: string | undefined,
  baseDir: string,
): string {
  const url = defaultJobStoreUrl(sessionServiceUri);
  return url.startsWith('sqlite:') ? url : `sqlite:${join(resolve(baseDir), '.adk', 'jobs.db')}`;
}

/** Options of {@link openJobService}. */
export interface JobServiceOptions {
  /**
   * `redis://…` (BullMQ) or `postgres://…` (graphile-worker) to use a queue engine; default: the
   * embedded `SqlJobStore` at {@link defaultJobStoreUrl}.
   */
  queueUrl?: string;
  /** BullMQ's key prefix or graphile-worker's schema (with `queueUrl`). */
  queueNamespace?: string;
  /** The sessions' URI, which places the default store (see {@link defaultJobStoreUrl}). */
  sessionServiceUri?: string;
  /** The agents folder. */
  baseDir: string;
  /** The runners of the apps, by app name: what the in-process worker runs. */
  runners: Readonly<Record<string, Runner>>;
  /**
   * Run a `JobWorker` in this process. Default: true without a `queueUrl` (the embedded store:
   * nothing else can reach an in-memory one, and the playground must run jobs with no setup; or
   * graphile-worker on the PostgreSQL sessions' database, where every instance then works the
   * shared queue), false with one (`adk worker` processes run them).
   */
  inProcessWorker?: boolean;
  /** Queues the in-process worker serves and their concurrency (default `{ default: 5 }`). */
  queues?: Readonly<Record<string, number>>;
}

/** The job store of a server, and its in-process worker if any. */
export interface OpenedJobService {
  store: JobStore;
  /**
   * What to give `createAdkServer` as `jobStore`: the store, whose enqueues also wake the
   * in-process worker so that a job due now starts at once instead of at the next poll.
   */
  serverStore: ServerJobStore;
  /** The worker running in this process, if any (already started). */
  worker: JobWorker | undefined;
  /**
   * Job changes shared with the other processes on the queue (PostgreSQL or Redis): this process's
   * changes are published on it; give it to `createAdkServer` as `jobChanges`.
   */
  changes: JobChangeFeed | undefined;
  /** Where jobs live, for messages (passwords masked). */
  description: string;
  /** Stop the worker (runs in flight go back to the queue), then close the store. Idempotent. */
  close(): Promise<void>;
}

/** The embedded job store at `url` (`sqlite:<file>`, `sqlite::memory:`), in WAL mode on a file. */
export async function openEmbeddedJobStore(url: string): Promise<SqlJobStore> {
  const db = await openKysely(url);
  // WAL: the job streams' reads never wait for a claim's write lock.
  if (parseDatabaseUrl(url).kind === 'sqlite' && !url.includes(':memory:')) {
    await sql`PRAGMA journal_mode = WAL`.execute(db);
  }
  return new SqlJobStore({ db, ownsDatabase: true });
}

/**
 * Open the job store of `adk web` / `adk api_server` / the playground, and start a worker in this
 * process unless told not to (see {@link JobServiceOptions.inProcessWorker}).
 */
export async function openJobService(options: JobServiceOptions): Promise<OpenedJobService> {
  const url = options.queueUrl ?? defaultJobStoreUrl(options.sessionServiceUri, options.baseDir);
  const store = /^sqlite:/.test(url)
    ? await openEmbeddedJobStore(url)
    : await openJobStore(url, options.queueNamespace);
  let changes: JobChangeFeed | undefined;
  try {
    changes = await openJobChangeFeed(url);
  } catch (error) {
    await store.close();
    throw error;
  }
  const stopPublishing = changes ? publishJobChanges(changes) : undefined;
  const inProcess = options.inProcessWorker ?? options.queueUrl === undefined;
  const worker = inProcess
    ? new JobWorker({
        store,
        runners: options.runners,
        queues: options.queues ?? { default: 5 },
      })
    : undefined;
  worker?.start();
  let closing: Promise<void> | undefined;
  const serverStore: ServerJobStore = {
    enqueue: async (request) => {
      const result = await store.enqueue(request as Parameters<JobStore['enqueue']>[0]);
      void worker?.poll().catch(() => undefined);
      return result;
    },
    get: (id) => store.get(id),
    list: (request) => store.list(request as Parameters<JobStore['list']>[0]),
    cancel: async (id) => {
      const job = await store.cancel(id);
      // Cancels publish nothing on the job channels: tell the other processes here.
      if (job) changes?.publish({ appName: job.appName });
      return job;
    },
  };
  return {
    store,
    serverStore,
    worker,
    changes,
    description: url.includes(':memory:') ? 'in memory (SQLite)' : maskDatabaseUrl(url),
    close: () =>
      (closing ??= (async () => {
        await worker?.stop();
        stopPublishing?.();
        await changes?.close();
        await store.close();
      })()),
  };
}
