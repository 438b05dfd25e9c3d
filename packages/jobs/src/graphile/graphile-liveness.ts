import type pg from 'pg';

/** PostgreSQL's time in ms since the epoch, as SQL (the clock graphile's `locked_at` uses). */
const DB_NOW_MS = `(extract(epoch from now()) * 1000)::bigint`;

/**
 * Record that the graphile worker pools of this process are alive (`adk_job_workers.seen_at`, in
 * PostgreSQL's time, the clock of graphile's `locked_at`).
 */
export async function recordHeartbeat(
  pool: pg.Pool,
  schema: string,
  workerIds: readonly string[],
): Promise<void> {
  if (workerIds.length === 0) return;
  await pool.query(
    `insert into "${schema}".adk_job_workers (worker_id, seen_at)
      select unnest($1::text[]), ${DB_NOW_MS}
      on conflict (worker_id) do update set seen_at = excluded.seen_at`,
    [workerIds],
  );
}

/** Forget the heartbeat of worker pools that stopped cleanly. */
export async function forgetWorkers(
  pool: pg.Pool,
  schema: string,
  workerIds: readonly string[],
): Promise<void> {
  if (workerIds.length === 0) return;
  await pool.query(`delete from "${schema}".adk_job_workers where worker_id = any($1)`, [
    workerIds,
  ]);
}

/**
 * Unlock the ADK jobs of graphile workers that died, so that another worker runs them again. A
 * locker is dead when:
 * - its heartbeat is older than `leaseMs` (it was killed, or hung, after it started beating); or
 * - it holds an ADK job locked for more than `leaseMs` and has no heartbeat at all (it was killed
 *   between locking its first jobs and writing its first heartbeat, or its heartbeat was removed as
 *   stale): a live worker writes its heartbeat as soon as its pool exists and every third of
 *   `leaseMs` after, so no live locker goes `leaseMs` without one.
 *
 * The unlock is graphile-worker's own `force_unlock_workers`, followed by its `jobs:insert`
 * notification so that idle workers fetch the jobs at once rather than at their next poll. Jobs of
 * other graphile tasks in the schema (the ADK crontab's `adk:cron`, a user's own tasks) have no ADK
 * record and are left to graphile. A job unlocked on its last allowed attempt is not run again
 * (graphile counted the attempt): its record is made `dead` with a `JOB_LEASE_EXPIRED` error, as
 * an embedded store records an expired lease on the last attempt. Returns the ids of the workers
 * unlocked.
 */
export async function sweepDeadWorkers(
  pool: pg.Pool,
  schema: string,
  leaseMs: number,
): Promise<string[]> {
  // One statement: the unlock and the notification commit with the removal of the stale heartbeats.
  const result = await pool.query<{ worker_ids: string[] }>(
    `with stale as (
        delete from "${schema}".adk_job_workers where seen_at < ${DB_NOW_MS} - $1::bigint
        returning worker_id
      ), orphans as (
        select distinct j.locked_by as worker_id
        from "${schema}"._private_jobs j join "${schema}".adk_job_records r on r.id = j.key
        where j.locked_at < now() - make_interval(secs => $1::double precision / 1000)
          and not exists (select 1 from "${schema}".adk_job_workers w where w.worker_id = j.locked_by)
      ), dead as (
        select array(select worker_id from stale union select worker_id from orphans) as ids
      ), exhausted as (
        update "${schema}".adk_job_records as r set outcome = 'dead', attempt = j.attempts,
          last_error = json_build_object('name', 'LeaseExpired', 'code', 'JOB_LEASE_EXPIRED',
            'message', 'The lease of worker "' || j.locked_by
              || '" expired on the last allowed attempt (the worker crashed or stalled).'),
          started_at = coalesce(r.started_at, (extract(epoch from j.locked_at) * 1000)::bigint),
          finished_at = ${DB_NOW_MS}, updated_at = ${DB_NOW_MS}
        from "${schema}"._private_jobs j, dead
        where j.key = r.id and j.locked_by = any(dead.ids) and j.attempts >= j.max_attempts
          and r.outcome is null
      )
      select dead.ids as worker_ids, "${schema}".force_unlock_workers(dead.ids),
        pg_notify('jobs:insert', json_build_object('count', greatest(cardinality(dead.ids),
          (select count(*) from "${schema}"._private_jobs where locked_by = any(dead.ids))))::text)
      from dead where cardinality(dead.ids) > 0`,
    [Math.round(leaseMs)],
  );
  return result.rows[0]?.worker_ids ?? [];
}
