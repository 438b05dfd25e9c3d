import type { Content } from '@adk/core';

/**
 * Where a job is in its life:
 * - `pending`: waiting for its `runAt` (new, or retrying after a failed attempt);
 * - `running`: claimed by a worker, which holds a lease until `leaseExpiresAt`;
 * - `completed`: the run finished; `result` says how;
 * - `dead`: every attempt failed (`lastError` has the last failure); never run again;
 * - `cancelled`: cancelled before it finished; never run again.
 */
export type JobState = 'pending' | 'running' | 'completed' | 'dead' | 'cancelled';

/** Every {@link JobState}, in life order. */
export const JOB_STATES: readonly JobState[] = [
  'pending',
  'running',
  'completed',
  'dead',
  'cancelled',
];

/** The failure of one attempt, as stored (plain data, so it survives a database round trip). */
export interface JobError {
  /** Error name (`ModelError`, `TypeError`...) or `ErrorEvent` for a run that ended on an error event. */
  name: string;
  message: string;
  /** The `AdkError` code or the event's `errorCode`, when there is one. */
  code?: string;
}

/** What a completed run produced. */
export interface JobResult {
  /** Text of the run's last final response (empty when it had none). */
  finalText: string;
  /** Number of events the run stored (the user's message included). */
  eventCount: number;
  /** The session the run used. */
  sessionId: string;
}

/** One background agent run: the message to send, where, when, and what became of it. */
export interface Job {
  /** Unique id (a UUID). */
  readonly id: string;
  /** Queue name; each queue has its own concurrency limit in a worker. */
  readonly queue: string;
  /** Lower runs first (0 is the most urgent); ties are broken by `runAt`, then by enqueue order. */
  readonly priority: number;
  readonly appName: string;
  readonly userId: string;
  /** The session to run in; when absent the worker uses (and creates) `job-<id>`. */
  readonly sessionId: string | undefined;
  /** The user's message the agent answers. */
  readonly message: Content;
  /** State changes stored with the user's message. */
  readonly stateDelta: Record<string, unknown> | undefined;
  readonly state: JobState;
  /** Earliest time (ms since the epoch) the job may start, or start again after a failure. */
  readonly runAt: number;
  /** Attempts started so far (1 while the first attempt runs). */
  readonly attempt: number;
  /** Attempts allowed before the job is dead. */
  readonly maxAttempts: number;
  /** Failure of the last failed attempt. */
  readonly lastError: JobError | undefined;
  /** Set once completed. */
  readonly result: JobResult | undefined;
  /** Dedupe key: one key names one job, forever (a second enqueue returns the first job). */
  readonly uniqueKey: string | undefined;
  /** Worker holding the lease while `running`. */
  readonly leaseOwner: string | undefined;
  /** When the lease ends; after it another worker may claim the job again. */
  readonly leaseExpiresAt: number | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Start of the latest attempt. */
  readonly startedAt: number | undefined;
  /** When the job became `completed`, `dead` or `cancelled`. */
  readonly finishedAt: number | undefined;
}
