import { randomUUID } from 'node:crypto';

import { onceUntilFailure, withSqliteWriteLock } from '@adk/sql-kit';
import { sql, type Kysely, type UpdateObject } from 'kysely';

import { systemClock, type JobClock } from '../clock/job-clock';
import { publishJobEvent } from '../diagnostics/job-channels';
import type { Job } from '../store/job';
import type {
  ClaimJobsRequest,
  CompleteJobRequest,
  EnqueueJobRequest,
  EnqueueJobResult,
  ExtendLeaseRequest,
  FailJobRequest,
  LeasedJobStore,
  LeasedJobRequest,
  ListJobsRequest,
  PruneJobsRequest,
} from '../store/job-store';
import {
  checkClaim,
  checkListLimit,
  checkPrune,
  normalizeEnqueue,
} from '../store/normalize-enqueue';
import { claimSqlite } from './claim';
import { detectJobDialect, type AnyKysely, type JobDialect } from './dialect';
import { rowToJob } from './job-rows';
import { checkJobSchema, migrateJobTables } from './migrations';
import { JOBS_TABLE, type JobDatabase, type JobRow } from './tables';

/** Options of {@link SqlJobStore}. */
export interface SqlJobStoreOptions {
  /** Your Kysely instance over SQLite (better-sqlite3). */
  db: AnyKysely;
  /** Force the SQL flavour when a wrapper hides Kysely's adapter. */
  dialect?: JobDialect;
  /**
   * Create or upgrade the tables on first use (default `true`). When false, the first call checks
   * the schema version and throws `JobSchemaVersionError` if the tables are missing or newer.
   */
  autoMigrate?: boolean;
  /** Destroy `db` on `close()` (default false: the Kysely instance is yours). */
  ownsDatabase?: boolean;
  /** Time source (default: the system clock). */
  clock?: JobClock;
}

/**
 * Jobs in a SQLite file through Kysely: the embedded, single-machine store, safe for many workers
 * in many processes on one file. `claim` runs inside `BEGIN IMMEDIATE`, so one claimer at a time
 * holds the write lock from the read of due jobs to their update. (PostgreSQL users get
 * `GraphileJobStore`, Redis users `BullMqJobStore`: queue engines that push jobs.)
 *
 * Lease-guarded updates (`complete`, `fail`, `release`, `extendLease`) are single statements that
 * match the job only while it is `running` under the caller's lease.
 *
 * @example
 * ```ts
 * const store = new SqlJobStore({ db }); // db: your Kysely instance
 * await store.enqueue({ appName: 'reports', userId: 'u1', message: userContent('Analyze Q3'), runIn: 3_600_000 });
 * ```
 */
export class SqlJobStore implements LeasedJobStore {
  readonly #db: Kysely<JobDatabase>;
  readonly #dialect: JobDialect;
  readonly #autoMigrate: boolean;
  readonly #ownsDatabase: boolean;
  readonly #clock: JobClock;
  readonly #migrate = onceUntilFailure(() => migrateJobTables(this.#db, this.#dialect));
  readonly #checkSchema = onceUntilFailure(() => checkJobSchema(this.#db));

  /** @throws UnsupportedJobDialectError when `db` is not SQLite. */
  constructor(options: SqlJobStoreOptions) {
    this.#db = options.db as Kysely<JobDatabase>;
    this.#dialect = detectJobDialect(options.db, options.dialect);
    this.#autoMigrate = options.autoMigrate ?? true;
    this.#ownsDatabase = options.ownsDatabase ?? false;
    this.#clock = options.clock ?? systemClock;
  }

  /** Create or upgrade the tables now. Idempotent; concurrent callers share one run. */
  migrate(): Promise<void> {
    return this.#migrate();
  }

  async enqueue(request: EnqueueJobRequest): Promise<EnqueueJobResult> {
    const now = this.#clock.now();
    const input = normalizeEnqueue(request, now);
    await this.#prepare();
    const row = {
      id: randomUUID(),
      queue: input.queue,
      priority: input.priority,
      app_name: input.appName,
      user_id: input.userId,
      session_id: input.sessionId ?? null,
      message: JSON.stringify(input.message),
      state_delta: input.stateDelta === undefined ? null : JSON.stringify(input.stateDelta),
      state: 'pending',
      run_at: input.runAt,
      attempt: 0,
      max_attempts: input.maxAttempts,
      last_error: null,
      result: null,
      unique_key: input.uniqueKey ?? null,
      lease_owner: null,
      lease_expires_at: null,
      created_at: now,
      updated_at: now,
      started_at: null,
      finished_at: null,
    };
    const inserted = await this.#db
      .insertInto(JOBS_TABLE)
      .values(row)
      .onConflict((conflict) => conflict.column('unique_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted === undefined) {
      const existing = await this.#db
        .selectFrom(JOBS_TABLE)
        .selectAll()
        .where('unique_key', '=', input.uniqueKey!)
        .executeTakeFirstOrThrow();
      return { job: rowToJob(existing), created: false };
    }
    const job = rowToJob(inserted);
    publishJobEvent('enqueued', () => ({ job }));
    return { job, created: true };
  }

  async claim(request: ClaimJobsRequest): Promise<Job[]> {
    checkClaim(request);
    await this.#prepare();
    const now = this.#clock.now();
    const args = { ...request, now };
    const { claimed, buried } = await withSqliteWriteLock(this.#db, (locked) =>
      claimSqlite(locked as Kysely<JobDatabase>, args),
    );
    for (const { row, leaseOwner } of buried) {
      publishJobEvent('dead', () => ({ job: rowToJob(row), workerId: leaseOwner ?? 'unknown' }));
    }
    return claimed.map(rowToJob);
  }

  async extendLease(request: ExtendLeaseRequest): Promise<boolean> {
    const now = this.#clock.now();
    const job = await this.#updateLeased(request, {
      lease_expires_at: now + Math.round(request.leaseMs),
      updated_at: now,
    });
    return job !== undefined;
  }

  async complete(request: CompleteJobRequest): Promise<Job | undefined> {
    const now = this.#clock.now();
    return this.#updateLeased(request, {
      state: 'completed',
      result: JSON.stringify(request.result),
      finished_at: now,
      ...released(now),
    });
  }

  async fail(request: FailJobRequest): Promise<Job | undefined> {
    const now = this.#clock.now();
    const dead = sql<boolean>`attempt >= max_attempts`;
    return this.#updateLeased(request, {
      state: sql<string>`case when ${dead} then 'dead' else 'pending' end`,
      run_at: sql<number>`case when ${dead} then run_at else cast(${Math.round(request.retryAt)} as bigint) end`,
      finished_at: sql<number | null>`case when ${dead} then cast(${now} as bigint) else null end`,
      last_error: JSON.stringify(request.error),
      ...released(now),
    });
  }

  async release(request: LeasedJobRequest): Promise<Job | undefined> {
    const now = this.#clock.now();
    return this.#updateLeased(request, {
      state: 'pending',
      attempt: sql<number>`case when attempt > 0 then attempt - 1 else 0 end`,
      run_at: now,
      ...released(now),
    });
  }

  async cancel(id: string): Promise<Job | undefined> {
    await this.#prepare();
    const now = this.#clock.now();
    const row = await this.#db
      .updateTable(JOBS_TABLE)
      .set({ state: 'cancelled', finished_at: now, ...released(now) })
      .where('id', '=', id)
      .where('state', 'in', ['pending', 'running'])
      .returningAll()
      .executeTakeFirst();
    return row && rowToJob(row);
  }

  async get(id: string): Promise<Job | undefined> {
    await this.#prepare();
    const row = await this.#db
      .selectFrom(JOBS_TABLE)
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && rowToJob(row);
  }

  async list(request: ListJobsRequest = {}): Promise<Job[]> {
    const limit = checkListLimit(request.limit);
    await this.#prepare();
    let query = this.#db.selectFrom(JOBS_TABLE).selectAll();
    if (request.state !== undefined) query = query.where('state', '=', request.state);
    if (request.queue !== undefined) query = query.where('queue', '=', request.queue);
    if (request.appName !== undefined) query = query.where('app_name', '=', request.appName);
    const rows = await query.orderBy(sql.ref('rowid')).limit(limit).execute();
    return rows.map(rowToJob);
  }

  async prune(request: PruneJobsRequest): Promise<number> {
    const states = checkPrune(request);
    await this.#prepare();
    let query = this.#db
      .deleteFrom(JOBS_TABLE)
      .where('state', 'in', [...states])
      .where('finished_at', '<', request.finishedBefore);
    if (request.queue !== undefined) query = query.where('queue', '=', request.queue);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async close(): Promise<void> {
    if (this.#ownsDatabase) await this.#db.destroy();
  }

  async #updateLeased(
    request: LeasedJobRequest,
    changes: UpdateObject<JobDatabase, typeof JOBS_TABLE>,
  ): Promise<Job | undefined> {
    await this.#prepare();
    const row: JobRow | undefined = await this.#db
      .updateTable(JOBS_TABLE)
      .set(changes)
      .where('id', '=', request.id)
      .where('state', '=', 'running')
      .where('lease_owner', '=', request.workerId)
      .returningAll()
      .executeTakeFirst();
    return row && rowToJob(row);
  }

  #prepare(): Promise<void> {
    return this.#autoMigrate ? this.#migrate() : this.#checkSchema();
  }
}

function released(now: number) {
  return { lease_owner: null, lease_expires_at: null, updated_at: now };
}
