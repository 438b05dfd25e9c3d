import { WaitingError, Worker, type Job as BullJob } from 'bullmq';

import type { JobResult } from '../store/job';
import type { ConsumeRequest, JobConsumer } from '../store/queue-engine';
import { InFlightRuns } from '../worker/in-flight';
import { ADK_BACKOFF, type BullMqStoreHost } from './bullmq-host';
import { bullToJob, type BullJobData } from './bullmq-rows';

/** Thrown into BullMQ to make it record a failed attempt. */
class AttemptFailed extends Error {
  override name = 'AttemptFailed';
}

/**
 * One queue served by a BullMQ `Worker`: BullMQ pops the jobs (blocking, no poll), holds a lock
 * of `leaseMs` renewed while the run goes on, and moves a stalled job (its worker died) back to
 * the queue within `leaseMs × 5/3` of the death (stalled checks every third of `leaseMs`). The
 * worker's `backoff` computes BullMQ's retry delay. Cancellation tombstones are checked every
 * third of `leaseMs`. A run whose lock BullMQ fails to renew (the process stalled past its lease,
 * so the job is handed out again) is aborted at once and its outcome not recorded.
 */
export class BullMqConsumer implements JobConsumer {
  readonly #store: BullMqStoreHost;
  readonly #request: ConsumeRequest;
  readonly #inFlight: InFlightRuns;
  #worker: Worker<BullJobData, JobResult> | undefined;
  /**
   * Runs whose lock BullMQ could not renew (it lapsed: the process stalled past `leaseMs`), so
   * BullMQ's stalled check hands the job to a worker again; they are aborted, not recorded.
   */
  readonly #leaseLost = new Set<string>();

  constructor(options: { store: BullMqStoreHost; request: ConsumeRequest }) {
    this.#store = options.store;
    this.#request = options.request;
    this.#inFlight = new InFlightRuns({
      request: options.request,
      tick: async () => this.#inFlight.abort(await this.#store.isCancelled(this.#inFlight.ids)),
    });
  }

  async start(): Promise<void> {
    const request = this.#request;
    this.#worker = new Worker<BullJobData, JobResult>(
      request.queue,
      (job, token) => this.#process(job, token),
      {
        connection: this.#store.connection,
        prefix: this.#store.prefix,
        name: request.workerId,
        concurrency: request.concurrency,
        lockDuration: request.leaseMs,
        // A dead worker's lock lapses within leaseMs; the stalled check that moves its jobs back
        // needs them marked by one check and unlocked at the next, and checks of several workers
        // may skip one another once: checks every third of leaseMs put the job back within
        // leaseMs × 5/3 of the death (every leaseMs, it took up to about 3 leases).
        stalledInterval: Math.max(50, Math.round(request.leaseMs / 3)),
        maxStalledCount: 5,
        settings: {
          backoffStrategy: (attemptsMade: number, type?: string) =>
            type === ADK_BACKOFF ? request.backoff(attemptsMade) : 0,
        },
      },
    );
    this.#worker.on('error', (error) => request.onError(error, undefined));
    this.#worker.on('lockRenewalFailed', (ids) => {
      const running = new Set(this.#inFlight.ids);
      const lost = ids.filter((id) => running.has(id));
      for (const id of lost) this.#leaseLost.add(id);
      this.#inFlight.abort(lost);
    });
    await this.#worker.waitUntilReady();
    this.#inFlight.start();
  }

  async stop(): Promise<void> {
    this.#inFlight.stop();
    await this.#worker?.close();
  }

  async #process(
    bull: BullJob<BullJobData, JobResult>,
    token: string | undefined,
  ): Promise<JobResult> {
    const request = this.#request;
    const job = bullToJob(bull, 'active');
    if (bull.id?.startsWith('repeat:')) await this.#store.orderScheduled(bull);
    const outcome = await this.#inFlight.run(job, async (controller) => {
      if ((await this.#store.isCancelled([job.id])).size > 0) controller.abort();
    });
    if (this.#leaseLost.delete(job.id)) {
      // The lock lapsed while the job ran: BullMQ's stalled check gives it to a worker again, so
      // this run's outcome is not this worker's to record (BullMQ refuses it anyway: the lock is
      // gone). Thrown, BullMQ's move of the job fails on the missing lock and leaves it be.
      request.recorded({ job: (await this.#store.get(job.id)) ?? job, outcome, refused: true });
      throw new AttemptFailed('Lease lost: the lock lapsed while the job ran here.');
    }
    const now = Date.now();
    const cancelled = (await this.#store.isCancelled([job.id])).size > 0;
    if (cancelled) {
      // Refused: let BullMQ end the job; its tombstone says it was cancelled.
      request.recorded({ job: (await this.#store.get(job.id)) ?? job, outcome, refused: true });
      return { finalText: '', eventCount: 0, sessionId: job.sessionId ?? `job-${job.id}` };
    }
    switch (outcome.kind) {
      case 'aborted': {
        await bull.moveToWait(token);
        request.recorded({
          job: {
            ...job,
            state: 'pending',
            attempt: job.attempt - 1,
            runAt: now,
            leaseOwner: undefined,
          },
          outcome,
          refused: false,
        });
        throw new WaitingError();
      }
      case 'completed': {
        request.recorded({
          job: {
            ...job,
            state: 'completed',
            result: outcome.result,
            finishedAt: now,
            updatedAt: now,
            leaseOwner: undefined,
          },
          outcome,
          refused: false,
        });
        return outcome.result;
      }
      case 'failed': {
        const dead = job.attempt >= job.maxAttempts;
        const runAt = dead ? job.runAt : now + request.backoff(job.attempt);
        await bull.updateData({ ...bull.data, lastError: outcome.error, runAt });
        request.recorded({
          job: {
            ...job,
            state: dead ? 'dead' : 'pending',
            lastError: outcome.error,
            runAt,
            leaseOwner: undefined,
            ...(dead ? { finishedAt: now } : {}),
          },
          outcome,
          refused: false,
        });
        throw new AttemptFailed(`${outcome.error.name}: ${outcome.error.message}`);
      }
    }
  }
}
