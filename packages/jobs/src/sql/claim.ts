import { sql, type Kysely } from 'kysely';

import { expiredLeaseError } from '../store/lease-expired';
import type { JobDatabase, JobRow } from './tables';
import { JOBS_TABLE } from './tables';

/** What a claim needs. */
export interface ClaimArguments {
  queue: string;
  workerId: string;
  leaseMs: number;
  limit: number;
  now: number;
}

/** What a claim did: the jobs it leased, and the ones it buried (with their lost lease's owner). */
export interface ClaimedRows {
  claimed: JobRow[];
  buried: { row: JobRow; leaseOwner: string | undefined }[];
}

const jobs = sql.table(JOBS_TABLE);

function expiredOnLastAttempt(args: ClaimArguments) {
  return sql`queue = ${args.queue} and state = 'running' and lease_expires_at <= ${args.now}
    and attempt >= max_attempts`;
}

/**
 * Running jobs of the queue whose lease expired on their last attempt become `dead`, their error
 * naming the worker that lost the lease. Each update repeats the condition, so a job buried by a
 * concurrent claim, or whose owner renewed its lease meanwhile, is left alone.
 */
async function buryExpired(
  db: Kysely<JobDatabase>,
  args: ClaimArguments,
): Promise<ClaimedRows['buried']> {
  const expired = await sql<{ id: string; lease_owner: string | null }>`select id, lease_owner
    from ${jobs} where ${expiredOnLastAttempt(args)}`.execute(db);
  const buried: ClaimedRows['buried'] = [];
  for (const { id, lease_owner } of expired.rows) {
    const leaseOwner = lease_owner ?? undefined;
    const error = JSON.stringify(expiredLeaseError(leaseOwner));
    const result = await sql<JobRow>`update ${jobs}
      set state = 'dead', last_error = ${error}, lease_owner = null, lease_expires_at = null,
          updated_at = ${args.now}, finished_at = ${args.now}
      where id = ${id} and ${expiredOnLastAttempt(args)}
      returning *`.execute(db);
    const row = result.rows[0];
    if (row) buried.push({ row, leaseOwner });
  }
  return buried;
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

/**
 * SQLite: called inside `BEGIN IMMEDIATE` (the caller holds the write lock), so the rows read are
 * still due when they are updated.
 */
export async function claimSqlite(
  db: Kysely<JobDatabase>,
  args: ClaimArguments,
): Promise<ClaimedRows> {
  const buried = await buryExpired(db, args);
  const picked = await sql<{ id: string; seq: number }>`select id, rowid as seq from ${jobs}
    where ${due(args)} order by priority, run_at, rowid limit ${args.limit}`.execute(db);
  if (picked.rows.length === 0) return { claimed: [], buried };
  const ids = picked.rows.map((row) => row.id);
  const result = await sql<JobRow>`update ${jobs} set ${lease(args)}
    where id in (${sql.join(ids)}) returning *, rowid as seq`.execute(db);
  const order = new Map(ids.map((id, index) => [id, index]));
  const claimed = [...result.rows].sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  return { claimed, buried };
}
