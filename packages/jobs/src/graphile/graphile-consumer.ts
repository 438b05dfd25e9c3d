import { EventEmitter } from 'node:events';

import { run, type JobHelpers, type Runner, type WorkerEvents } from 'graphile-worker';
import type pg from 'pg';

import type { JobClock } from '../clock/job-clock';
import type { AttemptOutcome } from '../store/attempt-outcome';
import type { Job, JobState } from '../store/job';
import type { ConsumeRequest, JobConsumer } from '../store/queue-engine';
import { InFlightRuns } from '../worker/in-flight';
import { JobEngineStoppedError } from '../errors/job-engine-stopped-error';
import { stopOnlyForOwnBreakingMigrations } from './graphile-foreign-migrations';
import { recordToJob, selectRecordFrom, type GraphileRecordRow } from './graphile-rows';
import { forgetWorkers, recordHeartbeat, sweepDeadWorkers } from './graphile-liveness';
import { graphileTaskIdentifier, quietLogger } from './graphile-schema';

/** What a {@link GraphileConsumer} needs from its store. */
export interface GraphileConsumerOptions {
  pool: pg.Pool;
  schema: string;
  clock: JobClock;
  pollIntervalMs: number;
  read: (id: string) => Promise<Job | undefined>;
  request: ConsumeRequest;
}

/**
 * A CTE (`async_commit`) that makes the statement's commit asynchronous. The outcome written with
 * it is followed, on the same PostgreSQL, by graphile-worker's synchronous commit of the job's
 * completion or failure, whose WAL flush covers it: the outcome is as durable as graphile's own
 * record, and the worker does not wait for a second flush per job. A crash of PostgreSQL before that
 * flush loses both, and the job runs again (and resumes from its session's events).
 */
const ASYNC_COMMIT = `async_commit as (select set_config('synchronous_commit', 'off', true))`;

/** Thrown into graphile-worker to make it record a failed (or given back) attempt. */
class AttemptFailed extends Error {
  override name = 'AttemptFailed';
}

/** graphile-worker's own retry delay after `attempts` failures: `exp(min(attempts, 10))` s. */
export function graphileBackoffMs(attempts: number): number {
  return Math.round(Math.exp(Math.min(attempts, 10)) * 1000);
}

/**
 * One queue served by a graphile-worker runner: graphile fetches and locks the jobs (pushed
 * through LISTEN/NOTIFY), this consumer runs each through the worker's `run`, stores the outcome
 * in ADK's record, and keeps a heartbeat per graphile worker pool so that the jobs of a worker that
 * died are unlocked within about `leaseMs` (graphile-worker's `force_unlock_workers`), not after
 * graphile's 4 hours; see {@link sweepDeadWorkers}.
 */
export class GraphileConsumer implements JobConsumer {
  readonly #options: GraphileConsumerOptions;
  readonly #inFlight: InFlightRuns;
  readonly #workerIds = new Set<string>();
  /** The graphile locker (`locked_by`) of each job running here, as it read when its run began. */
  readonly #lockers = new Map<string, string>();
  /** Runs aborted because their job was unlocked while they ran (see {@link #beat}). */
  readonly #leaseLost = new Set<string>();
  #runner: Runner | undefined;
  #stopping = false;
  #engineStopped = false;
  /** The runner's own stop, once this consumer stopped it because its schema was upgraded. */
  #runnerStopped: Promise<void> | undefined;

  constructor(options: GraphileConsumerOptions) {
    this.#options = options;
    this.#inFlight = new InFlightRuns({ request: options.request, tick: () => this.#beat() });
  }

  async start(): Promise<void> {
    const { pool, schema, request, pollIntervalMs } = this.#options;
    const events: WorkerEvents = new EventEmitter() as WorkerEvents;
    // graphile-worker 0.17 locks jobs in the name of its pool (older versions: of each worker).
    const register = (id: string) => {
      this.#workerIds.add(id);
      this.#inFlight.tickNow();
    };
    events.on('pool:create', ({ workerPool }) => register(workerPool.id));
    events.on('worker:create', ({ worker }) => register(worker.workerId));
    // Breaking migrations are announced database-wide: only one of this schema stops the pool.
    await stopOnlyForOwnBreakingMigrations(events, pool, schema, {
      onOwnBreaking: (breaking) => this.#stopForOwnMigration(breaking),
      onError: (error) => {
        if (!this.#stopping && !this.#engineStopped)
          this.#options.request.onError(error, undefined);
      },
    });
    // A pool that shuts down on its own takes no more jobs: say so rather than go quiet.
    events.on('pool:gracefulShutdown', ({ message }) => this.#reportStopped(message));
    this.#runner = await run({
      pgPool: pool,
      schema,
      concurrency: request.concurrency,
      noHandleSignals: true,
      pollInterval: pollIntervalMs,
      logger: quietLogger(),
      events,
      taskList: {
        [graphileTaskIdentifier(request.queue)]: (payload, helpers) => this.#task(payload, helpers),
      },
    });
    this.#inFlight.start();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    this.#inFlight.stop();
    // A runner that already shut itself down refuses a second stop.
    if (this.#runnerStopped) await this.#runnerStopped;
    else if (!this.#engineStopped) await this.#runner?.stop();
    const { pool, schema } = this.#options;
    // Given back unrun: due now, the attempt graphile counted taken back.
    const released = this.#inFlight.released;
    if (released.length > 0) await this.#giveBack(released);
    await forgetWorkers(pool, schema, [...this.#workerIds]);
  }

  /** Report, once, that the engine stopped serving the queue while the worker runs. */
  #reportStopped(reason: string, cause?: unknown): void {
    if (this.#stopping || this.#engineStopped) return;
    this.#engineStopped = true;
    const { request } = this.#options;
    request.onError(
      new JobEngineStoppedError({
        engine: 'graphile-worker',
        queue: request.queue,
        reason,
        ...(cause === undefined ? {} : { cause }),
      }),
      undefined,
    );
  }

  /**
   * A newer graphile-worker applied breaking migration `breaking` to this schema, which this
   * version cannot run on: stop the pool and report it.
   */
  #stopForOwnMigration(breaking: number): void {
    if (this.#stopping || this.#engineStopped) return;
    this.#reportStopped(
      `a newer graphile-worker applied breaking migration ${breaking} to schema "${this.#options.schema}", which this version cannot run on`,
    );
    this.#runnerStopped = this.#runner?.stop().catch(() => undefined);
  }

  /**
   * Given back unrun: due now, the attempt graphile counted taken back. graphile-worker records
   * the failed attempt asynchronously (it batches its writes), so wait for its lock to go first.
   */
  async #giveBack(ids: string[]): Promise<void> {
    const { pool, schema } = this.#options;
    for (let wait = 0; wait < 100; wait++) {
      const locked = await pool.query(
        `select 1 from "${schema}".jobs where key = any($1) and locked_at is not null`,
        [ids],
      );
      if (locked.rowCount === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await pool.query(
      `select from "${schema}".jobs j, lateral "${schema}".reschedule_jobs(array[j.id],
        run_at => now(), attempts => greatest(j.attempts - 1, 0))
        where j.key = any($1) and j.locked_at is null`,
      [ids],
    );
  }

  async #task(payload: unknown, helpers: JobHelpers): Promise<void> {
    const { read } = this.#options;
    const id = (payload as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') throw new AttemptFailed('Not an ADK job: its payload has no id.');
    const stored = await read(id);
    // Pruned, cancelled or finished meanwhile: returning lets graphile delete its row.
    if (stored === undefined || (stored.state !== 'running' && stored.state !== 'pending')) return;
    // Unlocked by a sweep since graphile locked it for this pool (this process's heartbeat came
    // late, so it was taken for dead), and pending again or taken by another worker: not this
    // pool's to run, nor to delete (graphile deletes a completed job's row whoever holds it, which
    // would lose the job). Thrown, graphile records the failed attempt only on a row this pool
    // still locks, so the row stays, for whoever runs it next.
    if (stored.state === 'pending' || stored.leaseOwner !== helpers.job.locked_by)
      throw new AttemptFailed('Lease lost: the job was unlocked before its run started.');
    const job: Job = { ...stored, attempt: helpers.job.attempts };
    if (helpers.job.locked_by !== null) this.#lockers.set(id, helpers.job.locked_by);
    let outcome: AttemptOutcome;
    try {
      outcome = await this.#inFlight.run(job);
    } finally {
      this.#lockers.delete(id);
    }
    await this.#record(job, outcome, helpers);
  }

  async #record(job: Job, outcome: AttemptOutcome, helpers: JobHelpers): Promise<void> {
    const { pool, schema, clock, request, read } = this.#options;
    const now = clock.now();
    const refused = (current: Job | undefined) =>
      request.recorded({ job: current ?? job, outcome, refused: true });
    if (this.#leaseLost.delete(job.id)) {
      // Unlocked by a sweep while it ran (this process's heartbeat came late): whatever the run's
      // outcome, the job is no longer this pool's. Returning would let graphile delete the row,
      // which another worker may hold by now; thrown, graphile records the failed attempt only on
      // a row this pool still locks, so the row stays for whoever runs it next.
      refused(await read(job.id));
      throw new AttemptFailed('Lease lost: the job was unlocked while it ran here.');
    }
    switch (outcome.kind) {
      case 'aborted': {
        if (!this.#inFlight.isReleased(job.id)) {
          // Cancelled: let graphile delete the job.
          refused(await read(job.id));
          return;
        }
        request.recorded({
          job: { ...job, state: 'pending', attempt: job.attempt - 1, runAt: now },
          outcome,
          refused: false,
        });
        throw new AttemptFailed('Given back unrun: the worker is stopping.');
      }
      case 'completed': {
        // One statement: the outcome, and the job as it now reads.
        const done = await pool.query<GraphileRecordRow & { state: JobState }>(
          `with ${ASYNC_COMMIT}, done as (
            update "${schema}".adk_job_records as rec set outcome = 'completed', result = $2,
              attempt = $3, started_at = $4, finished_at = $5, updated_at = $5
              from async_commit where rec.id = $1 and rec.outcome is null returning rec.*
          ) ${selectRecordFrom('done', `"${schema}".jobs`)}`,
          [job.id, JSON.stringify(outcome.result), job.attempt, job.startedAt ?? now, now],
        );
        const row = done.rows[0];
        if (row === undefined) return refused(await read(job.id));
        request.recorded({ job: recordToJob(row), outcome, refused: false });
        return;
      }
      case 'failed': {
        const dead = helpers.job.attempts >= helpers.job.max_attempts;
        const failed = await pool.query(
          `with ${ASYNC_COMMIT} update "${schema}".adk_job_records as rec set last_error = $2,
            attempt = $3, started_at = $4, updated_at = $5,
            outcome = case when $6 then 'dead' else null end,
            finished_at = case when $6 then $5::bigint else null end
            from async_commit where rec.id = $1 and rec.outcome is null`,
          [job.id, JSON.stringify(outcome.error), job.attempt, job.startedAt ?? now, now, dead],
        );
        if (failed.rowCount === 0) {
          refused(await read(job.id));
          return;
        }
        const after: Job = dead
          ? {
              ...job,
              state: 'dead',
              lastError: outcome.error,
              finishedAt: now,
              leaseOwner: undefined,
            }
          : {
              ...job,
              state: 'pending',
              lastError: outcome.error,
              runAt: now + graphileBackoffMs(job.attempt),
              leaseOwner: undefined,
            };
        request.recorded({ job: after, outcome, refused: false });
        throw new AttemptFailed(`${outcome.error.name}: ${outcome.error.message}`);
      }
    }
  }

  /**
   * Heartbeat of this process's graphile workers; unlock dead workers' jobs; abort the runs whose
   * job was cancelled, and those whose job is no longer locked by the pool that began the run: a
   * sweep unlocked it because this process's heartbeat came late (a stalled event loop, a busy
   * machine), so another worker may run it now. Such a run stops at this tick, not when it ends,
   * and its outcome is not recorded (see {@link #record}).
   */
  async #beat(): Promise<void> {
    const { pool, schema, request } = this.#options;
    await recordHeartbeat(pool, schema, [...this.#workerIds]);
    await sweepDeadWorkers(pool, schema, request.leaseMs);
    const running = this.#inFlight.ids;
    if (running.length === 0) return;
    const ended = await pool.query<{ id: string; cancelled: boolean }>(
      `select t.id, coalesce(r.outcome = 'cancelled', false) as cancelled
        from unnest($1::text[], $2::text[]) as t(id, locker)
        left join "${schema}".adk_job_records r on r.id = t.id
        left join "${schema}"._private_jobs j on j.key = t.id
        where r.outcome = 'cancelled'
          or (t.locker is not null and j.locked_by is distinct from t.locker)`,
      [running, running.map((id) => this.#lockers.get(id) ?? null)],
    );
    // Only runs still in flight: one that ended meanwhile has been recorded already.
    const lost = ended.rows.filter((row) => !row.cancelled && this.#lockers.has(row.id));
    for (const row of lost) this.#leaseLost.add(row.id);
    this.#inFlight.abort(ended.rows.map((row) => row.id));
  }
}
