import { randomUUID } from 'node:crypto';

import { systemClock, type JobClock, type TimerHandle } from '../clock/job-clock';
import { publishJobEvent } from '../diagnostics/job-channels';
import { JobRunnerNotFoundError } from '../errors/job-runner-not-found-error';
import type { Job } from '../store/job';
import type { LeasedJobStore } from '../store/job-store';
import { isQueueEngineJobStore } from '../store/queue-engine';
import { EngineDriver } from './engine-driver';
import { runJobAttempt, toJobError, type AttemptOutcome } from './run-job';
import {
  resolveWorkerOptions,
  type JobWorkerOptions,
  type ResolvedWorkerOptions,
} from './worker-options';

interface InFlight {
  job: Job;
  controller: AbortController;
  leaseLost: boolean;
  done: Promise<void>;
}

/**
 * Runs due jobs in the background: claims them from a polled store (lowest priority number first,
 * then earliest `runAt`) or subscribes to a queue engine's (`GraphileJobStore`, `BullMqJobStore`),
 * runs each on the runner of its `appName`, and records the outcome.
 *
 * - Concurrency: at most `queues[name]` jobs of each queue run at once in this worker.
 * - Leases: a running job's lease is renewed every third of `leaseMs`; when a renewal is refused
 *   (the job was cancelled, or its lease expired and another worker took it) the run is aborted.
 *   A job whose worker crashed is handed to another worker (at-least-once delivery), which
 *   resumes its invocation `job-<id>` from the session's event log (see `runJobAttempt`).
 * - Failures (a thrown run, or a run whose last event has an `errorCode`) are retried after the
 *   backoff delay until `maxAttempts`, then the job is `dead`.
 * - `stop()` aborts the runs in flight and gives their jobs back to the queue, attempt not counted.
 *
 * @example
 * ```ts
 * const worker = new JobWorker({ store, runners: [runner], queues: { default: 5, critical: 10 } });
 * worker.start();
 * // ... on shutdown:
 * await worker.stop();
 * ```
 */
export class JobWorker {
  /** Owner id of this worker's leases. */
  readonly workerId: string;
  readonly #store: LeasedJobStore;
  readonly #engine: EngineDriver | undefined;
  readonly #clock: JobClock;
  readonly #options: ResolvedWorkerOptions;
  readonly #onError: (error: unknown, job: Job | undefined) => void;
  readonly #inFlight = new Map<string, InFlight>();
  readonly #runningByQueue = new Map<string, number>();
  #started = false;
  #stopping = false;
  #pollTimer: TimerHandle | undefined;
  #polling: Promise<number> | undefined;
  #pollAgain = false;
  #keepAlive: ReturnType<typeof setInterval> | undefined;

  /** @throws InvalidArgumentError for invalid options. */
  constructor(options: JobWorkerOptions) {
    this.#options = resolveWorkerOptions(options);
    this.#store = options.store as LeasedJobStore;
    this.#clock = options.clock ?? systemClock;
    this.workerId = options.workerId ?? `worker-${randomUUID()}`;
    this.#onError =
      options.onError ??
      ((error, job) =>
        console.error(`@adk/jobs worker ${this.workerId}, job ${job?.id ?? '(none)'}:`, error));
    this.#engine = isQueueEngineJobStore(options.store)
      ? new EngineDriver({
          store: options.store,
          options: this.#options,
          workerId: this.workerId,
          onError: this.#onError,
          attempt: (job, signal) => this.#attempt(job, signal),
        })
      : undefined;
  }

  /** Number of jobs running in this worker now. */
  get running(): number {
    return this.#engine ? this.#engine.running : this.#inFlight.size;
  }

  /**
   * Poll for due jobs every `pollIntervalMs`, and whenever a slot frees up, until `stop()`. A
   * started worker keeps its process alive (the clock's timers do not), so a dedicated worker
   * process needs nothing else; `stop()` lets it exit.
   */
  start(): void {
    if (this.#started || this.#stopping) return;
    this.#started = true;
    // One ref'd no-op interval holds the event loop open until stop(); the poll and lease timers
    // stay unref'd so a worker that was never started never holds a process.
    this.#keepAlive = setInterval(() => undefined, 2 ** 31 - 1);
    if (this.#engine)
      this.#engine.start().catch((error: unknown) => this.#onError(error, undefined));
    else void this.#pollLoop();
  }

  /**
   * Claim due jobs for every free slot once, and start them. Resolves with the number started
   * (their runs go on in the background; see {@link JobWorker.idle}).
   */
  poll(): Promise<number> {
    // A queue engine pushes its jobs: there is nothing to poll.
    if (this.#engine) return Promise.resolve(0);
    if (this.#polling) {
      this.#pollAgain = true;
      return this.#polling;
    }
    this.#polling = this.#pollOnce().finally(() => {
      this.#polling = undefined;
    });
    return this.#polling;
  }

  /** Resolves when no job runs in this worker. */
  async idle(): Promise<void> {
    if (this.#engine) return this.#engine.idle();
    while (this.#inFlight.size > 0) {
      await Promise.all([...this.#inFlight.values()].map((entry) => entry.done));
    }
  }

  /**
   * Run due jobs until none is due and none runs: poll, wait, repeat. For tests and scripts; a
   * job retried at a later time is due only once the clock reaches it.
   */
  async drain(): Promise<void> {
    if (this.#engine) return this.#engine.drain();
    for (;;) {
      const started = await this.poll();
      if (this.#inFlight.size === 0) {
        if (started === 0) return;
        continue;
      }
      await Promise.race([...this.#inFlight.values()].map((entry) => entry.done));
    }
  }

  /**
   * Stop polling, abort the runs in flight and put their jobs back in the queue (due now, the
   * attempt not counted), then resolve. No job is lost: one whose release fails is claimed again
   * when its lease expires.
   */
  async stop(): Promise<void> {
    this.#stopping = true;
    if (this.#keepAlive !== undefined) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
    if (this.#pollTimer !== undefined) this.#clock.clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
    await this.#polling?.catch(() => undefined);
    if (this.#engine) return this.#engine.stop();
    for (const entry of this.#inFlight.values()) entry.controller.abort();
    await this.idle();
  }

  async #pollLoop(): Promise<void> {
    if (this.#stopping) return;
    try {
      await this.poll();
    } catch (error) {
      this.#onError(error, undefined);
    }
    if (this.#stopping) return;
    this.#pollTimer = this.#clock.setTimeout(() => {
      this.#pollTimer = undefined;
      void this.#pollLoop();
    }, this.#options.pollIntervalMs);
  }

  async #pollOnce(): Promise<number> {
    let started = 0;
    do {
      this.#pollAgain = false;
      for (const [queue, concurrency] of this.#options.queues) {
        if (this.#stopping) return started;
        const free = concurrency - (this.#runningByQueue.get(queue) ?? 0);
        if (free <= 0) continue;
        const jobs = await this.#store.claim({
          queue,
          workerId: this.workerId,
          leaseMs: this.#options.leaseMs,
          limit: free,
        });
        for (const job of jobs) {
          this.#launch(job);
          started++;
        }
      }
    } while (this.#pollAgain && !this.#stopping);
    return started;
  }

  #launch(job: Job): void {
    const entry: InFlight = {
      job,
      controller: new AbortController(),
      leaseLost: false,
      done: Promise.resolve(),
    };
    this.#runningByQueue.set(job.queue, (this.#runningByQueue.get(job.queue) ?? 0) + 1);
    this.#inFlight.set(job.id, entry);
    if (this.#stopping) entry.controller.abort();
    entry.done = this.#execute(entry).finally(() => {
      this.#inFlight.delete(job.id);
      this.#runningByQueue.set(job.queue, (this.#runningByQueue.get(job.queue) ?? 1) - 1);
      if (this.#started && !this.#stopping)
        void this.poll().catch((error: unknown) => this.#onError(error, job));
    });
  }

  async #execute(entry: InFlight): Promise<void> {
    const { job, controller } = entry;
    const startTime = performance.now();
    publishJobEvent('started', () => ({ job, workerId: this.workerId }));
    let renewal: TimerHandle | undefined;
    const renew = () => {
      renewal = this.#clock.setTimeout(() => {
        this.#store
          .extendLease({ id: job.id, workerId: this.workerId, leaseMs: this.#options.leaseMs })
          .then((held) => {
            if (controller.signal.aborted) return;
            if (held) return renew();
            entry.leaseLost = true;
            controller.abort();
          })
          .catch((error: unknown) => {
            this.#onError(error, job);
            if (!controller.signal.aborted) renew();
          });
      }, this.#options.leaseMs / 3);
    };
    renew();
    let outcome: AttemptOutcome;
    try {
      outcome = controller.signal.aborted
        ? { kind: 'aborted' }
        : await this.#attempt(job, controller.signal);
    } catch (error) {
      // Only a throwing `runners` lookup gets here: runJobAttempt reports failures as outcomes.
      outcome = { kind: 'failed', error: toJobError(error) };
    } finally {
      if (renewal !== undefined) this.#clock.clearTimeout(renewal);
      controller.abort();
    }
    try {
      await this.#record(entry, outcome, performance.now() - startTime);
    } catch (error) {
      this.#onError(error, job);
    }
  }

  #attempt(job: Job, signal: AbortSignal): Promise<AttemptOutcome> {
    const runner = this.#options.resolveRunner(job.appName);
    if (runner) return runJobAttempt(runner, job, signal);
    const error = toJobError(new JobRunnerNotFoundError({ appName: job.appName }));
    return Promise.resolve({ kind: 'failed', error });
  }

  async #record(entry: InFlight, outcome: AttemptOutcome, durationMs: number): Promise<void> {
    const { job } = entry;
    const lease = { id: job.id, workerId: this.workerId };
    const workerId = this.workerId;
    // The store refused the outcome: the job was cancelled, or taken by another worker (or
    // buried) after this worker's lease expired. The attempt ends without an outcome.
    const leaseLost = () =>
      publishJobEvent('released', () => ({ job, workerId, reason: 'lease-lost' }));
    switch (outcome.kind) {
      case 'aborted': {
        if (entry.leaseLost) return leaseLost();
        const released = await this.#store.release(lease);
        if (!released) return leaseLost();
        publishJobEvent('released', () => ({ job: released, workerId, reason: 'stopping' }));
        return;
      }
      case 'completed': {
        const completed = await this.#store.complete({ ...lease, result: outcome.result });
        if (!completed) return leaseLost();
        publishJobEvent('completed', () => ({ job: completed, workerId, durationMs }));
        return;
      }
      case 'failed': {
        const retryAt = this.#clock.now() + this.#options.backoff(job.attempt);
        const failed = await this.#store.fail({ ...lease, error: outcome.error, retryAt });
        if (!failed) return leaseLost();
        publishJobEvent('failed', () => ({
          job: failed,
          workerId,
          error: outcome.error,
          durationMs,
        }));
        if (failed.state === 'dead') publishJobEvent('dead', () => ({ job: failed, workerId }));
        else publishJobEvent('retrying', () => ({ job: failed, workerId }));
        return;
      }
    }
  }
}
