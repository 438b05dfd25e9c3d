/**
 * The job lifecycle messages of `@adk/jobs`, as far as telemetry reads them. They are consumed
 * structurally from `node:diagnostics_channel` by name, so `@adk/telemetry` does not depend on
 * `@adk/jobs`: these types describe the fields read, and a message missing one is ignored.
 */

/** Names of the `@adk/jobs` channels telemetry listens to. */
export const JOB_CHANNELS = {
  started: 'adk:job:started',
  completed: 'adk:job:completed',
  failed: 'adk:job:failed',
  retrying: 'adk:job:retrying',
  dead: 'adk:job:dead',
  released: 'adk:job:released',
} as const;

/** The fields of a job that telemetry reads. */
export interface ObservedJob {
  id: string;
  queue: string;
  priority: number;
  appName: string;
  userId: string;
  /** The session to run in; when absent the worker uses `job-<id>`. */
  sessionId: string | undefined;
  /** The attempt (1 for the first). */
  attempt: number;
  maxAttempts: number;
  /** When a retrying job runs again (ms since the epoch). */
  runAt: number;
  /** Why the last attempt failed (for a job buried because its lease expired, the only record). */
  lastError?: ObservedJobError;
}

/** The failure of an attempt, as `@adk/jobs` stores it. */
export interface ObservedJobError {
  name: string;
  message: string;
  code?: string;
}

/** `adk:job:started`, `adk:job:retrying`, `adk:job:dead`. */
export interface ObservedJobMessage {
  job: ObservedJob;
  workerId: string;
}

/** `adk:job:completed`. */
export interface ObservedJobCompleted extends ObservedJobMessage {
  durationMs: number;
}

/** `adk:job:failed`. */
export interface ObservedJobFailed extends ObservedJobMessage {
  error: ObservedJobError;
  durationMs: number;
}

/** `adk:job:released`. */
export interface ObservedJobReleased extends ObservedJobMessage {
  reason: string;
}

/** Whether `message` carries a job and a worker id, the least every handler needs. */
export function isJobMessage(message: unknown): message is ObservedJobMessage {
  if (typeof message !== 'object' || message === null) return false;
  const { job, workerId } = message as { job?: unknown; workerId?: unknown };
  return (
    typeof workerId === 'string' &&
    typeof job === 'object' &&
    job !== null &&
    typeof (job as { id?: unknown }).id === 'string' &&
    typeof (job as { appName?: unknown }).appName === 'string'
  );
}

/** The session a job's run uses: its own, or `job-<id>` (the rule of `@adk/jobs`). */
export function jobSessionId(job: ObservedJob): string {
  return job.sessionId ?? `job-${job.id}`;
}
