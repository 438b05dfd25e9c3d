import { publishJobEvent } from '../diagnostics/job-channels';
import type { AttemptOutcome } from '../store/attempt-outcome';
import type { Job } from '../store/job';
import type { JobConsumer, QueueEngineJobStore, RecordedAttempt } from '../store/queue-engine';
import type { ResolvedWorkerOptions } from './worker-options';

/** What the driver needs from its `JobWorker`. */
export interface EngineDriverContext {
  store: QueueEngineJobStore;
  options: ResolvedWorkerOptions;
  workerId: string;
  onError: (error: unknown, job: Job | undefined) => void;
  attempt: (job: Job, signal: AbortSignal) => Promise<AttemptOutcome>;
}

const DRAIN_CHECK_MS = 25;

/**
 * The worker's side of a queue engine: one consumer per queue, each run wrapped so the worker's
 * `adk:job:*` messages are published as with a polled store (started, then completed, failed with
 * retrying or dead, or released).
 */
export class EngineDriver {
  readonly #context: EngineDriverContext;
  readonly #consumers: JobConsumer[] = [];
  readonly #running = new Map<string, { start: number; done: Promise<void>; finish: () => void }>();
  #starting: Promise<void> | undefined;

  constructor(context: EngineDriverContext) {
    this.#context = context;
  }

  get running(): number {
    return this.#running.size;
  }

  /** Subscribe to every queue; resolves once the engine listens. Idempotent. */
  start(): Promise<void> {
    this.#starting ??= this.#subscribe();
    return this.#starting;
  }

  /** Start if needed, then wait until no job of the worker's queues is due or running here. */
  async drain(): Promise<void> {
    await this.start();
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, DRAIN_CHECK_MS));
      if (this.#running.size > 0) continue;
      let active = 0;
      for (const queue of this.#context.options.queues.keys())
        active += await this.#context.store.countActive(queue);
      if (active === 0 && this.#running.size === 0) return;
    }
  }

  async idle(): Promise<void> {
    while (this.#running.size > 0)
      await Promise.all([...this.#running.values()].map((entry) => entry.done));
  }

  /** Stop every consumer: the engine aborts the runs in flight and gives their jobs back. */
  async stop(): Promise<void> {
    await this.#starting?.catch(() => undefined);
    await Promise.all(this.#consumers.splice(0).map((consumer) => consumer.stop()));
    await this.idle();
  }

  async #subscribe(): Promise<void> {
    const { store, options, workerId, onError } = this.#context;
    for (const [queue, concurrency] of options.queues) {
      this.#consumers.push(
        await store.consume({
          queue,
          concurrency,
          workerId,
          leaseMs: options.leaseMs,
          backoff: options.backoff,
          run: (job, signal) => this.#run(job, signal),
          recorded: (attempt) => this.#recorded(attempt),
          onError,
        }),
      );
    }
  }

  async #run(job: Job, signal: AbortSignal): Promise<AttemptOutcome> {
    const { workerId } = this.#context;
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    this.#running.set(job.id, { start: performance.now(), done, finish });
    publishJobEvent('started', () => ({ job, workerId }));
    try {
      return signal.aborted ? { kind: 'aborted' } : await this.#context.attempt(job, signal);
    } catch (error) {
      this.#end(job.id);
      throw error;
    }
  }

  #end(id: string): number {
    const entry = this.#running.get(id);
    this.#running.delete(id);
    entry?.finish();
    return entry === undefined ? 0 : performance.now() - entry.start;
  }

  #recorded({ job, outcome, refused }: RecordedAttempt): void {
    const workerId = this.#context.workerId;
    const durationMs = this.#end(job.id);
    if (refused) {
      publishJobEvent('released', () => ({ job, workerId, reason: 'lease-lost' }));
      return;
    }
    switch (outcome.kind) {
      case 'aborted':
        publishJobEvent('released', () => ({ job, workerId, reason: 'stopping' }));
        return;
      case 'completed':
        publishJobEvent('completed', () => ({ job, workerId, durationMs }));
        return;
      case 'failed':
        publishJobEvent('failed', () => ({ job, workerId, error: outcome.error, durationMs }));
        if (job.state === 'dead') publishJobEvent('dead', () => ({ job, workerId }));
        else publishJobEvent('retrying', () => ({ job, workerId }));
        return;
    }
  }
}
