import type { Backoff } from '../worker/backoff';
import type { AttemptOutcome } from './attempt-outcome';
import type { Job } from './job';
import type { JobStore } from './job-store';

/** What the engine recorded for an attempt, reported to the worker after the fact. */
export interface RecordedAttempt {
  /** The job as the engine holds it now (as it was run, when `refused`). */
  job: Job;
  outcome: AttemptOutcome;
  /**
   * True when the store refused the outcome: the job was cancelled meanwhile (the worker
   * publishes `released` with reason `lease-lost`). An `aborted` outcome that is not refused gave
   * the job back unrun (the worker stopped).
   */
  refused: boolean;
}

/** Arguments of {@link QueueEngineJobStore.consume}: one queue served by one worker. */
export interface ConsumeRequest {
  queue: string;
  /** Jobs of this queue run at once in this worker (at least 1). */
  concurrency: number;
  /** The worker's id (engines that name their own workers keep theirs and log this one). */
  workerId: string;
  /**
   * How long a job may go without a sign of life from its worker before the engine hands it to
   * another worker (BullMQ: the lock duration; graphile-worker: the heartbeat timeout after which
   * the store force-unlocks a dead worker's jobs). Cancellation is checked every third of it.
   */
  leaseMs: number;
  /** Delay before a retry, where the engine lets the worker choose it (BullMQ); else ignored. */
  backoff: Backoff;
  /** Runs one attempt. The signal aborts when the job is cancelled or the consumer stops. */
  run: (job: Job, signal: AbortSignal) => Promise<AttemptOutcome>;
  /** Called once the engine has recorded an attempt's outcome. */
  recorded: (attempt: RecordedAttempt) => void;
  /** Called when the engine or the store fails outside a run. */
  onError: (error: unknown, job: Job | undefined) => void;
}

/** A running subscription of a worker to one queue of a queue engine. */
export interface JobConsumer {
  /**
   * Stop taking jobs, abort the runs in flight and give their jobs back to the queue (due now, the
   * attempt not counted), then resolve.
   */
  stop(): Promise<void>;
}

/**
 * A store whose queue engine (graphile-worker on PostgreSQL, BullMQ on Redis) pushes jobs to the
 * workers: the worker does not poll, it subscribes to each of its queues with `consume`. Claiming,
 * locking, retry timing and crash recovery are the engine's own; see the README's table of how the
 * engines differ.
 */
export interface QueueEngineJobStore extends JobStore {
  /** The engine's name, for logs and docs (`graphile-worker`, `bullmq`). */
  readonly engine: string;
  /** Start serving one queue; resolves once the engine is listening. */
  consume(request: ConsumeRequest): Promise<JobConsumer>;
  /**
   * Jobs of `queue` due now (pending with `runAt <= now`) or running. `JobWorker.drain()` waits for
   * this to reach 0.
   */
  countActive(queue: string): Promise<number>;
}

/** True when `store` is pushed to by a queue engine (it has `consume`), not polled. */
export function isQueueEngineJobStore(store: JobStore): store is QueueEngineJobStore {
  return typeof (store as Partial<QueueEngineJobStore>).consume === 'function';
}
