import type { Job, JobError, JobResult, JobState } from '../store/job';

/** The job record ADK keeps beside graphile-worker's job (which graphile deletes on success). */
export interface GraphileRecordRow {
  id: string;
  unique_key: string | null;
  queue: string;
  priority: number;
  app_name: string;
  user_id: string;
  session_id: string | null;
  message: Job['message'];
  state_delta: Record<string, unknown> | null;
  max_attempts: number;
  run_at: string;
  created_at: string;
  updated_at: string;
  outcome: 'completed' | 'cancelled' | 'dead' | null;
  result: JobResult | null;
  last_error: JobError | null;
  attempt: number;
  started_at: string | null;
  finished_at: string | null;
  /** From graphile-worker's `jobs` view (null once graphile deleted the job). */
  gw_id: string | null;
  gw_attempts: number | null;
  gw_max_attempts: number | null;
  gw_run_at: string | null;
  gw_locked_at: string | null;
  gw_locked_by: string | null;
  gw_updated_at: string | null;
}

/**
 * The state as SQL, from the record and graphile's job: the record's outcome when finished; else
 * graphile's lock (running), exhausted attempts (dead), or pending.
 */
export const STATE_SQL = `case
  when r.outcome is not null then r.outcome
  when j.id is null then 'cancelled'
  when j.locked_at is not null then 'running'
  when j.attempts >= j.max_attempts then 'dead'
  else 'pending' end`;

/**
 * The select of a record and its state from `records` and `jobs` (graphile's jobs, left joined on
 * its key, the record's id): tables, views or CTEs named so.
 */
export function selectRecordFrom(records: string, jobs: string): string {
  return `select r.*, ${STATE_SQL} as state, j.id::text as gw_id, j.attempts as gw_attempts,
    j.max_attempts as gw_max_attempts,
    (extract(epoch from j.run_at) * 1000)::bigint::text as gw_run_at,
    (extract(epoch from j.locked_at) * 1000)::bigint::text as gw_locked_at, j.locked_by as gw_locked_by,
    (extract(epoch from j.updated_at) * 1000)::bigint::text as gw_updated_at
    from ${records} r left join ${jobs} j on j.key = r.id`;
}

/** The columns every read selects: the record and graphile's view of the job. */
export function selectRecord(schema: string): string {
  return selectRecordFrom(`"${schema}".adk_job_records`, `"${schema}".jobs`);
}

const num = (value: string | null): number | undefined =>
  value === null ? undefined : Number(value);

/** A record row (with its `state`) as a {@link Job}. */
export function recordToJob(row: GraphileRecordRow & { state: JobState }): Job {
  const live = row.outcome === null && row.gw_id !== null;
  const running = row.state === 'running';
  return {
    id: row.id,
    queue: row.queue,
    priority: row.priority,
    appName: row.app_name,
    userId: row.user_id,
    sessionId: row.session_id ?? undefined,
    message: row.message,
    stateDelta: row.state_delta ?? undefined,
    state: row.state,
    runAt: live ? Number(row.gw_run_at) : Number(row.run_at),
    attempt: live ? row.gw_attempts! : row.attempt,
    maxAttempts: row.max_attempts,
    lastError: row.last_error ?? undefined,
    result: row.result ?? undefined,
    uniqueKey: row.unique_key ?? undefined,
    leaseOwner: running ? (row.gw_locked_by ?? undefined) : undefined,
    // graphile-worker has no lease end: a crashed worker's jobs are force-unlocked by heartbeat.
    leaseExpiresAt: undefined,
    createdAt: Number(row.created_at),
    updatedAt: running ? (num(row.gw_locked_at) ?? Number(row.updated_at)) : Number(row.updated_at),
    startedAt: running ? num(row.gw_locked_at) : (num(row.started_at) ?? undefined),
    finishedAt: num(row.finished_at),
  };
}
