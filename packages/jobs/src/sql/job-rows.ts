import type { Job, JobState } from '../store/job';
import type { JobRow } from './tables';

function time(value: number | string | null): number | undefined {
  return value === null ? undefined : Number(value);
}

function json<T>(value: string | null): T | undefined {
  return value === null ? undefined : (JSON.parse(value) as T);
}

/** A stored row as a {@link Job}. */
export function rowToJob(row: JobRow): Job {
  return {
    id: row.id,
    queue: row.queue,
    priority: Number(row.priority),
    appName: row.app_name,
    userId: row.user_id,
    sessionId: row.session_id ?? undefined,
    message: JSON.parse(row.message) as Job['message'],
    stateDelta: json(row.state_delta),
    state: row.state as JobState,
    runAt: Number(row.run_at),
    attempt: Number(row.attempt),
    maxAttempts: Number(row.max_attempts),
    lastError: json(row.last_error),
    result: json(row.result),
    uniqueKey: row.unique_key ?? undefined,
    leaseOwner: row.lease_owner ?? undefined,
    leaseExpiresAt: time(row.lease_expires_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    startedAt: time(row.started_at),
    finishedAt: time(row.finished_at),
  };
}
