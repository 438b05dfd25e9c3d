import { randomUUID } from 'node:crypto';

import { InvalidArgumentError } from '@adk/core';
import pg from 'pg';

import { systemClock, type JobClock } from '../clock/job-clock';
import { publishJobEvent } from '../diagnostics/job-channels';
import type { Job, JobState } from '../store/job';
import type {
  EnqueueJobRequest,
  EnqueueJobResult,
  ListJobsRequest,
  PruneJobsRequest,
} from '../store/job-store';
import { checkListLimit, checkPrune, normalizeEnqueue } from '../store/normalize-enqueue';
import type { ConsumeRequest, JobConsumer, QueueEngineJobStore } from '../store/queue-engine';
import { GraphileConsumer } from './graphile-consumer';
import { GraphileCron, type GraphileCronOptions } from './graphile-cron';
import {
  STATE_SQL,
  recordToJob,
  selectRecord,
  selectRecordFrom,
  type GraphileRecordRow,
} from './graphile-rows';
import { graphileTaskIdentifier, migrateGraphileSchema } from './graphile-schema';

export { graphileTaskIdentifier } from './graphile-schema';

/** Options of {@link GraphileJobStore}. */
export interface GraphileJobStoreOptions {
  /** `postgres://…` URL; the store then owns its pool. Give this or `pool`. */
  connectionString?: string;
  /** Your `pg` pool (the same PostgreSQL as your sessions is fine). */
  pool?: pg.Pool;
  /** Schema of graphile-worker's tables and ADK's two tables (default `adk_jobs`). */
  schema?: string;
  /** Time of `runAt`, `createdAt` and outcomes (default: the system clock). */
  clock?: JobClock;
  /** graphile-worker's fallback poll when a notification is missed, in ms (default 2000). */
  pollIntervalMs?: number;
}

const SMALLINT = 32_767;

/**
 * Jobs on PostgreSQL through [graphile-worker](https://worker.graphile.org): jobs are pushed to
 * the workers through `LISTEN/NOTIFY` (no poll), locked with `SKIP LOCKED`, retried with
 * graphile-worker's backoff, in their own schema. Each ADK queue is a graphile task identifier
 * (`adk:<queue>`); ADK keeps one record per job beside graphile's row (what the job is, its
 * result and its unique key), since graphile-worker deletes a job when it succeeds.
 *
 * @example
 * ```ts
 * const store = new GraphileJobStore({ connectionString: 'postgres://localhost/app' });
 * const worker = new JobWorker({ store, runners: [runner], queues: { default: 5 } });
 * worker.start(); // jobs arrive through LISTEN/NOTIFY
 * ```
 */
export class GraphileJobStore implements QueueEngineJobStore {
  readonly engine = 'graphile-worker';
  /** The schema of graphile-worker's and ADK's tables. */
  readonly schema: string;
  readonly #pool: pg.Pool;
  readonly #ownsPool: boolean;
  readonly #clock: JobClock;
  readonly #pollIntervalMs: number;
  #ready: Promise<void> | undefined;

  /** @throws InvalidArgumentError without a connection string or pool, or for a bad schema name. */
  constructor(options: GraphileJobStoreOptions) {
    if (!options.pool && !options.connectionString)
      throw new InvalidArgumentError({
        argument: 'connectionString',
        message: 'GraphileJobStore needs a connectionString or a pool.',
      });
    this.schema = options.schema ?? 'adk_jobs';
    if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(this.schema))
      throw new InvalidArgumentError({
        argument: 'schema',
        message: `schema must be a plain identifier, not "${this.schema}".`,
      });
    this.#ownsPool = !options.pool;
    this.#pool = options.pool ?? new pg.Pool({ connectionString: options.connectionString });
    // A client's connection error must not crash the process: the next query reconnects.
    if (this.#ownsPool)
      this.#pool
        .on('error', () => undefined)
        .on('connect', (client) => client.on('error', () => undefined));
    this.#clock = options.clock ?? systemClock;
    this.#pollIntervalMs = options.pollIntervalMs ?? 2000;
  }

  /** Install graphile-worker's schema and ADK's tables now (otherwise done on first use). */
  migrate(): Promise<void> {
    this.#ready ??= migrateGraphileSchema(this.#pool, this.schema).catch((error: unknown) => {
      this.#ready = undefined;
      throw error;
    });
    return this.#ready;
  }

  async enqueue(request: EnqueueJobRequest): Promise<EnqueueJobResult> {
    const now = this.#clock.now();
    const input = normalizeEnqueue(request, now);
    for (const [argument, value] of [
      ['priority', input.priority],
      ['maxAttempts', input.maxAttempts],
    ] as const) {
      if (Math.abs(value) > SMALLINT)
        throw new InvalidArgumentError({
          argument,
          message: `graphile-worker stores ${argument} as a smallint: at most ${SMALLINT} in size.`,
        });
    }
    await this.migrate();
    // One statement (one round trip, atomic): ADK's record, then graphile's job in the name of the
    // record's id. A unique key already taken inserts neither.
    const inserted = await this.#pool.query<GraphileRecordRow & { state: JobState }>(
      `with r as (
        insert into "${this.schema}".adk_job_records (id, unique_key, queue, priority, app_name,
          user_id, session_id, message, state_delta, max_attempts, run_at, created_at, updated_at)
        values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
        on conflict (unique_key) do nothing returning *
      ), j as (
        select added.* from r, lateral "${this.schema}".add_job($13, json_build_object('id', r.id),
          run_at => to_timestamp(r.run_at::double precision / 1000), max_attempts => r.max_attempts,
          job_key => r.id, priority => r.priority) as added
      )
      ${selectRecordFrom('r', 'j')}`,
      [
        randomUUID(),
        input.uniqueKey ?? null,
        input.queue,
        input.priority,
        input.appName,
        input.userId,
        input.sessionId ?? null,
        JSON.stringify(input.message),
        input.stateDelta === undefined ? null : JSON.stringify(input.stateDelta),
        input.maxAttempts,
        input.runAt,
        now,
        graphileTaskIdentifier(input.queue),
      ],
    );
    const row = inserted.rows[0];
    if (row === undefined) {
      const existing = await this.#readOne('r.unique_key = $1', [input.uniqueKey]);
      return { job: existing!, created: false };
    }
    const job = recordToJob(row);
    publishJobEvent('enqueued', () => ({ job }));
    return { job, created: true };
  }

  async cancel(id: string): Promise<Job | undefined> {
    await this.migrate();
    const now = this.#clock.now();
    const updated = await this.#pool.query(
      `update "${this.schema}".adk_job_records set outcome = 'cancelled', finished_at = $2,
        updated_at = $2 where id = $1 and outcome is null returning id`,
      [id, now],
    );
    if (updated.rowCount === 0) return undefined;
    // Deletes the job when unlocked; a locked (running) one is kept from retrying. Its worker
    // sees the outcome at its next check and aborts the run.
    await this.#pool.query(`select from "${this.schema}".remove_job($1)`, [id]);
    return this.get(id);
  }

  async get(id: string): Promise<Job | undefined> {
    await this.migrate();
    return this.#readOne('r.id = $1', [id]);
  }

  async list(request: ListJobsRequest = {}): Promise<Job[]> {
    const limit = checkListLimit(request.limit);
    await this.migrate();
    const where: string[] = [];
    const values: unknown[] = [];
    const add = (clause: string, value: unknown) => {
      values.push(value);
      where.push(clause.replace('?', `$${values.length}`));
    };
    if (request.queue !== undefined) add('r.queue = ?', request.queue);
    if (request.appName !== undefined) add('r.app_name = ?', request.appName);
    if (request.state !== undefined) add(`(${STATE_SQL}) = ?`, request.state);
    values.push(limit);
    const result = await this.#pool.query<GraphileRecordRow & { state: JobState }>(
      `${selectRecord(this.schema)} ${where.length ? `where ${where.join(' and ')}` : ''}
       order by r.seq limit $${values.length}`,
      values,
    );
    return result.rows.map(recordToJob);
  }

  async prune(request: PruneJobsRequest): Promise<number> {
    const states = checkPrune(request);
    await this.migrate();
    const values: unknown[] = [states, request.finishedBefore];
    let queue = '';
    if (request.queue !== undefined) {
      values.push(request.queue);
      queue = 'and queue = $3';
    }
    const deleted = await this.#pool.query<{ id: string }>(
      `delete from "${this.schema}".adk_job_records where outcome = any($1)
        and finished_at < $2 ${queue} returning id`,
      values,
    );
    const ids = deleted.rows.map((row) => row.id);
    // graphile-worker keeps permanently failed jobs: remove them (unlocked ones only).
    if (ids.length > 0)
      await this.#pool.query(
        `select from unnest($1::text[]) as key, lateral "${this.schema}".remove_job(key)`,
        [ids],
      );
    return ids.length;
  }

  async countActive(queue: string): Promise<number> {
    await this.migrate();
    const result = await this.#pool.query<{ count: string }>(
      `select count(*) from "${this.schema}".adk_job_records r
        join "${this.schema}".jobs j on j.key = r.id
        where r.queue = $1 and r.outcome is null
          and (j.locked_at is not null or (j.run_at <= now() and j.attempts < j.max_attempts))`,
      [queue],
    );
    return Number(result.rows[0]?.count ?? 0);
  }

  async consume(request: ConsumeRequest): Promise<JobConsumer> {
    await this.migrate();
    const consumer = new GraphileConsumer({
      pool: this.#pool,
      schema: this.schema,
      clock: this.#clock,
      pollIntervalMs: this.#pollIntervalMs,
      read: (id) => this.get(id),
      request,
    });
    await consumer.start();
    return consumer;
  }

  /**
   * Enqueue a job per occurrence of each schedule through graphile-worker's crontab: any number of
   * processes may run it, each occurrence is enqueued once (graphile-worker's `known_crontabs`,
   * and the ADK unique key `cron:<name>:<time>`). Resolves once the crontab runs; `stop()` ends it.
   */
  async schedule(options: GraphileCronOptions): Promise<JobConsumer> {
    await this.migrate();
    const cron = new GraphileCron({ pool: this.#pool, schema: this.schema, store: this, options });
    await cron.start();
    return cron;
  }

  /** End the pool when the store created it. */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end();
  }

  async #readOne(
    condition: string,
    values: unknown[],
    client: pg.Pool | pg.PoolClient = this.#pool,
  ): Promise<Job | undefined> {
    const result = await client.query<GraphileRecordRow & { state: JobState }>(
      `${selectRecord(this.schema)} where ${condition}`,
      values,
    );
    const row = result.rows[0];
    return row && recordToJob(row);
  }
}
