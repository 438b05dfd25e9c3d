import type { Content } from '@adk/core';

import type { Job, JobError, JobResult, JobState } from './job';

/** Arguments of {@link JobStore.enqueue}. */
export interface EnqueueJobRequest {
  appName: string;
  userId: string;
  /** Run in this session (created when missing); default: a new session `job-<id>`. */
  sessionId?: string;
  /** The user's message the agent answers; at least one part. */
  message: Content;
  /** State changes stored with the user's message. */
  stateDelta?: Record<string, unknown>;
  /** Queue name (default `default`). */
  queue?: string;
  /** Integer; lower runs first (default 0, the most urgent). */
  priority?: number;
  /** Earliest start, ms since the epoch. Default: now. Exclusive with `runIn`. */
  runAt?: number;
  /** Earliest start, in ms from now. Exclusive with `runAt`. */
  runIn?: number;
  /** Attempts allowed, at least 1 (default 5). */
  maxAttempts?: number;
  /** Dedupe key: when a job with this key exists (in any state), it is returned instead. */
  uniqueKey?: string;
}

/** What {@link JobStore.enqueue} did. */
export interface EnqueueJobResult {
  job: Job;
  /** False when an existing job with the same `uniqueKey` was returned. */
  created: boolean;
}

/** Arguments of {@link LeasedJobStore.claim}. */
export interface ClaimJobsRequest {
  queue: string;
  /** Id of the claiming worker; it owns the leases it gets. */
  workerId: string;
  /** Lease length in ms. */
  leaseMs: number;
  /** Claim at most this many jobs (at least 1). */
  limit: number;
}

/** Identifies a running job and the worker that holds its lease. */
export interface LeasedJobRequest {
  id: string;
  workerId: string;
}

/** Arguments of {@link LeasedJobStore.extendLease}. */
export interface ExtendLeaseRequest extends LeasedJobRequest {
  leaseMs: number;
}

/** Arguments of {@link LeasedJobStore.complete}. */
export interface CompleteJobRequest extends LeasedJobRequest {
  result: JobResult;
}

/** Arguments of {@link LeasedJobStore.fail}. */
export interface FailJobRequest extends LeasedJobRequest {
  error: JobError;
  /** When to try again, if attempts are left. */
  retryAt: number;
}

/** Arguments of {@link JobStore.list}. */
export interface ListJobsRequest {
  state?: JobState;
  queue?: string;
  appName?: string;
  /** At most this many (default 100). */
  limit?: number;
}

/** Arguments of {@link JobStore.prune}. */
export interface PruneJobsRequest {
  /** Delete jobs that finished before this time (ms since the epoch). */
  finishedBefore: number;
  /** Finished states to delete (default all three: `completed`, `dead`, `cancelled`). */
  states?: readonly ('completed' | 'dead' | 'cancelled')[];
  /** Only this queue's jobs (default: every queue). */
  queue?: string;
}

/**
 * Where jobs wait: the part of the contract every store fulfils (embedded SQLite, in memory,
 * graphile-worker, BullMQ), checked by `jobStoreConformance` from `@adk/jobs/testing/vitest`. How a worker
 * gets the jobs differs by kind: a {@link LeasedJobStore} is polled and leases each job it hands
 * out; a {@link QueueEngineJobStore} lets its queue engine push jobs to the worker.
 */
export interface JobStore {
  /**
   * Store a new `pending` job, or return the existing one with the same `uniqueKey`.
   * @throws InvalidArgumentError for a malformed request.
   */
  enqueue(request: EnqueueJobRequest): Promise<EnqueueJobResult>;
  /**
   * Cancel a `pending` or `running` job (a running one's worker learns it when its lease is
   * refused). Returns `undefined` when the job does not exist or has already finished.
   */
  cancel(id: string): Promise<Job | undefined>;
  get(id: string): Promise<Job | undefined>;
  /** Jobs matching every given filter, oldest first. */
  list(request?: ListJobsRequest): Promise<Job[]>;
  /**
   * Delete finished jobs (`completed`, `dead`, `cancelled`) whose `finishedAt` is before
   * `finishedBefore`; resolves with how many were deleted. Their unique keys become free again,
   * so keep jobs of cron schedules longer than the scheduler's `catchUpMs` (prune after days, not
   * minutes), or a scheduler could enqueue a recent occurrence again.
   * @throws InvalidArgumentError for another state or a non-finite time.
   */
  prune(request: PruneJobsRequest): Promise<number>;
  /** Release resources the store owns. */
  close(): Promise<void>;
}

/**
 * A store the worker polls (`claim`), with leases: the embedded stores (`SqlJobStore` on SQLite,
 * `InMemoryJobStore`).
 *
 * A job is handed out by `claim` to one worker at a time, with a lease. The worker reports the
 * outcome with `complete`, `fail` or `release`; these succeed only while it still holds the lease
 * (they return `undefined` otherwise, and change nothing). A lease that expires makes the job
 * claimable again: a crashed worker's job runs again, and resumes its run from the session's
 * event log (see `JobWorker`).
 */
export interface LeasedJobStore extends JobStore {
  /**
   * Lease up to `limit` jobs of `queue` that are due: `pending` with `runAt <= now`, or `running`
   * with an expired lease. Lowest `priority` first, then earliest `runAt`, then enqueue order.
   * Each claimed job is `running`, its `attempt` incremented. An expired job whose attempts are
   * exhausted becomes `dead` instead, and the store publishes `adk:job:dead` for it (with the
   * `workerId` of the lease that expired, so observers can end that attempt). Concurrent claims
   * never hand out the same job, nor bury it twice.
   */
  claim(request: ClaimJobsRequest): Promise<Job[]>;
  /** Push the lease to now + `leaseMs`; false when the worker no longer holds it. */
  extendLease(request: ExtendLeaseRequest): Promise<boolean>;
  /** Mark the job `completed` with its result. */
  complete(request: CompleteJobRequest): Promise<Job | undefined>;
  /**
   * Record a failed attempt: `pending` again at `retryAt`, or `dead` when `attempt` has reached
   * `maxAttempts`.
   */
  fail(request: FailJobRequest): Promise<Job | undefined>;
  /** Give the job back unrun (worker stopping): `pending`, due now, the attempt not counted. */
  release(request: LeasedJobRequest): Promise<Job | undefined>;
}
