import type { AttemptOutcome } from '../store/attempt-outcome';
import type { Job } from '../store/job';
import type { ConsumeRequest } from '../store/queue-engine';

/** Options of {@link InFlightRuns}. */
export interface InFlightRunsOptions {
  /** The consume request of the consumer: its `run`, `leaseMs` and `onError`. */
  request: ConsumeRequest;
  /**
   * Work done every third of `leaseMs` (at least every 50 ms) while the consumer runs: the
   * cancellation check, and the engine's heartbeat where it has one. Its errors go to `onError`.
   */
  tick: () => Promise<void>;
}

/**
 * The runs in flight of one queue-engine consumer (graphile-worker, BullMQ): the abort controller
 * of each running job, the periodic tick that looks for cancelled jobs (and heartbeats), and the
 * stop that aborts every run and marks its job as given back. The engine keeps the jobs; this keeps
 * what the worker needs to interrupt them.
 */
export class InFlightRuns {
  readonly #request: ConsumeRequest;
  readonly #tick: () => Promise<void>;
  readonly #controllers = new Map<string, AbortController>();
  readonly #released = new Set<string>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #ticking = false;
  #tickAgain = false;
  #stopping = false;

  constructor(options: InFlightRunsOptions) {
    this.#request = options.request;
    this.#tick = options.tick;
  }

  /** True once {@link stop} was called. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Ids of the jobs running now. */
  get ids(): string[] {
    return [...this.#controllers.keys()];
  }

  /** Ids of the jobs given back unrun because the consumer stopped. */
  get released(): string[] {
    return [...this.#released];
  }

  /** True when `id` was aborted because the consumer stopped (not because it was cancelled). */
  isReleased(id: string): boolean {
    return this.#released.has(id);
  }

  /** Run the tick now and then every third of `leaseMs` (at least 50 ms), until {@link stop}. */
  start(): void {
    this.tickNow();
    this.#timer = setInterval(() => this.tickNow(), Math.max(50, this.#request.leaseMs / 3));
    this.#timer.unref();
  }

  /**
   * Run the tick once now (not after {@link stop}); its error goes to `onError`. Ticks never
   * overlap: asked while one runs, the tick runs once more after it.
   */
  tickNow(): void {
    if (this.#stopping) return;
    if (this.#ticking) {
      this.#tickAgain = true;
      return;
    }
    this.#ticking = true;
    void this.#tick()
      .catch((error: unknown) => this.#request.onError(error, undefined))
      .finally(() => {
        this.#ticking = false;
        if (!this.#tickAgain) return;
        this.#tickAgain = false;
        this.tickNow();
      });
  }

  /** Abort the runs of these jobs (they were cancelled); ids not running are ignored. */
  abort(ids: Iterable<string>): void {
    for (const id of ids) this.#controllers.get(id)?.abort();
  }

  /**
   * Run one attempt through the request's `run`, tracked until it ends. `beforeRun` (a check of the
   * engine's, such as for a cancellation) may abort the run first; when it throws, the job is no
   * longer tracked and the error propagates. A throwing run becomes a `failed` outcome. A run that
   * starts while the consumer stops is aborted at once and marked as given back.
   */
  async run(
    job: Job,
    beforeRun?: (controller: AbortController) => Promise<void>,
  ): Promise<AttemptOutcome> {
    const controller = new AbortController();
    this.#controllers.set(job.id, controller);
    if (this.#stopping) {
      this.#released.add(job.id);
      controller.abort();
    }
    try {
      await beforeRun?.(controller);
    } catch (error) {
      this.#controllers.delete(job.id);
      throw error;
    }
    try {
      return await this.#request.run(job, controller.signal);
    } catch (error) {
      return {
        kind: 'failed',
        error: { name: 'Error', message: error instanceof Error ? error.message : String(error) },
      };
    } finally {
      this.#controllers.delete(job.id);
    }
  }

  /** Stop the tick, abort every run in flight and mark its job as given back. */
  stop(): void {
    this.#stopping = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const [id, controller] of this.#controllers) {
      this.#released.add(id);
      controller.abort();
    }
  }
}
