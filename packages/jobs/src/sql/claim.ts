import { sql, type Kysely } from 'kysely';

import type { JobDatabase, JobRow } from './tables';
import { JOBS_TABLE } from './tables';

/** What both claim statements need. */
export interface ClaimArguments {
  queue: string;
  workerId: string;
  leaseMs: number;
  limit: number;
  now: number;
  /** JSON of the error recorded on jobs whose lease expired on their last attempt. */
  expiredError: string;
}

const jobs = sql.table(JOBS_TABLE);

/** Running jobs of the queue whose lease expired on their last attempt become `dead`. */
function buryExpired(db: Kysely<JobDatabase>, args: ClaimArguments) {
  return sql`update ${jobs}
    set state = 'dead', last_error = ${args.expiredError}, lease_owner = null, lease_expires_at = null,
        updated_at = ${args.now}, finished_at = ${args.now}
    where queue = ${args.queue} and state = 'running' and lease_expires_at <= ${args.now}
      and attempt >= max_attempts`.execute(db);
}

function due(args: ClaimArguments) {
  return sql`queue = ${args.queue} and (
    (state = 'pending' and run_at <= ${args.now})
    or (state = 'running' and lease_expires_at <= ${args.now} and attempt < max_attempts))`;
}

function lease(args: ClaimArguments) {
  return sql`state = 'running', attempt = attempt + 1, lease_owner = ${args.workerId},
    lease_expires_at = ${args.now + Math.round(args.leaseMs)}, started_at = ${args.now},
    updated_at = ${args.now}`;
}

function byPriority(a: JobRow, b: JobRow): number {
  return (
    Number(a.priority) - Number(b.priority) ||
    Number(a.run_at) - Number(b.run_at) ||
    Number(a.seq) - Number(b.seq)
  );
}

/**
 * PostgreSQL: one statement leases the due rows, skipping rows another claimer has locked, so
 * concurrent workers never take the same job and never wait on each other.
 */
export async function claimPostgres(
  db: Kysely<JobDatabase>,
  args: ClaimArguments,
): Promise<JobRow[]> {
  await buryExpired(db, args);
  const result = await sql<JobRow>`update ${jobs} set ${lease(args)}
    where id in (
      select id from ${jobs} where ${due(args)}
      order by priority, run_at, seq
      limit ${args.limit}
      for update skip locked)
    returning *`.execute(db);
  return [...result.rows].sort(byPriority);
}

/**
 * SQLite: called inside `BEGIN IMMEDIATE` (the caller holds the write lock), so the rows read are
 * still due when they are updated.
 */
export async function claimSqlite(
  db: Kysely<JobDatabase>,
  args: ClaimArguments,
): Promise<JobRow[]> {
  await buryExpired(db, args);
  const picked = await sql<{ id: string; seq: number }>`select id, rowid as seq from ${jobs}
    where ${due(args)} order by priority, run_at, rowid limit ${args.limit}`.execute(db);
  if (picked.rows.length === 0) return [];
  const ids = picked.rows.map((row) => row.id);
  const result = await sql<JobRow>`update ${jobs} set ${lease(args)}
    where id in (${sql.join(ids)}) returning *, rowid as seq`.execute(db);
  const order = new Map(ids.map((id, index) => [id, index]));
  return [...result.rows].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
}
