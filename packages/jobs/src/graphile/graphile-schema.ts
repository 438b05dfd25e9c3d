import { Logger, runMigrations } from 'graphile-worker';
import type { Pool } from 'pg';

/**
 * ADK's two tables beside graphile-worker's, in the same schema:
 * - `adk_job_records`: what a job is (app, user, message) and how it ended, since graphile-worker
 *   deletes a job when it succeeds; also the unique key, which names one job until it is pruned;
 * - `adk_job_workers`: the heartbeat of each graphile worker of a running `JobWorker`, so that the
 *   jobs of a worker that died are unlocked after `leaseMs` instead of graphile's 4 hours.
 */
function adkTables(schema: string): string {
  return `
create table if not exists "${schema}".adk_job_records (
  seq bigserial not null,
  id text primary key,
  unique_key text unique,
  queue text not null,
  priority integer not null,
  app_name text not null,
  user_id text not null,
  session_id text,
  message json not null,
  state_delta json,
  max_attempts integer not null,
  run_at bigint not null,
  created_at bigint not null,
  updated_at bigint not null,
  outcome text,
  result json,
  last_error json,
  attempt integer not null default 0,
  started_at bigint,
  finished_at bigint
);
create index if not exists adk_job_records_queue_idx on "${schema}".adk_job_records (queue, seq);
create table if not exists "${schema}".adk_job_workers (
  worker_id text primary key,
  seen_at bigint not null
);`;
}

/**
 * Install graphile-worker's schema (its own migrations) and ADK's tables in `schema`.
 * Idempotent; concurrent callers wait on an advisory lock.
 */
export async function migrateGraphileSchema(pool: Pool, schema: string): Promise<void> {
  await runMigrations({ pgPool: pool, schema, logger: quietLogger() });
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock(hashtext($1))', [`${schema}.adk_jobs`]);
    await client.query(adkTables(schema));
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * graphile-worker's logger, silenced below warnings, and silent about failed tasks: ADK reports
 * those through `adk:job:failed`.
 */
export function quietLogger(): Logger {
  return new Logger(() => (level, message) => {
    if (message.startsWith('Failed task ')) return;
    if (level === 'error' || level === 'warning') console.warn(`graphile-worker: ${message}`);
  });
}

/** Task identifier of a queue's jobs in graphile-worker: `adk:<queue>`. */
export function graphileTaskIdentifier(queue: string): string {
  return `adk:${queue}`;
}
