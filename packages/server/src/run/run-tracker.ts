import { ServerShuttingDownError } from '../errors/server-shutting-down-error';

/** One run in flight on this instance. */
export interface TrackedRun {
  /** Set once the run's first event names its invocation. */
  setInvocation(invocationId: string): void;
  /** The run ended (normally, by error, or aborted); idempotent. */
  end(): void;
}

interface Entry {
  controller: AbortController;
  invocationId: string | undefined;
}

/**
 * The runs in flight on this server instance (`/run`, `/run_sse`): which invocations run here
 * (a resumed stream follows them to their end instead of timing out), and the graceful shutdown
 * that stops taking runs, lets the ones in flight finish up to a deadline, then aborts the rest.
 * Holds one small entry per run in flight, nothing after it ends.
 */
export class RunTracker {
  readonly #runs = new Set<Entry>();
  readonly #idle = new Set<() => void>();
  #draining = false;

  /** Whether a shutdown started: new runs are refused and readiness fails. */
  get draining(): boolean {
    return this.#draining;
  }

  /** Runs in flight. */
  get size(): number {
    return this.#runs.size;
  }

  /**
   * Track a run aborted by `controller` at the end of a shutdown deadline.
   *
   * @throws ServerShuttingDownError once a shutdown started.
   */
  begin(controller: AbortController): TrackedRun {
    if (this.#draining)
      throw new ServerShuttingDownError({ message: 'The server is shutting down.' });
    const entry: Entry = { controller, invocationId: undefined };
    this.#runs.add(entry);
    return {
      setInvocation: (invocationId) => {
        entry.invocationId = invocationId;
      },
      end: () => {
        if (!this.#runs.delete(entry)) return;
        if (this.#runs.size === 0) for (const wake of this.#idle) wake();
      },
    };
  }

  /** Whether `invocationId` is running on this instance. */
  isRunning(invocationId: string): boolean {
    for (const entry of this.#runs) if (entry.invocationId === invocationId) return true;
    return false;
  }

  /**
   * Stop taking runs; wait up to `deadlineMs` for the runs in flight to end, then abort the rest
   * with a {@link ServerShuttingDownError} and wait (up to `deadlineMs` again) for them to stop.
   * Returns how many ended on their own and how many were aborted.
   */
  async drain(deadlineMs: number): Promise<{ finished: number; aborted: number }> {
    this.#draining = true;
    const before = this.#runs.size;
    await this.#whenIdle(deadlineMs);
    const left = [...this.#runs];
    for (const entry of left) entry.controller.abort(new ServerShuttingDownError());
    if (left.length > 0) await this.#whenIdle(deadlineMs);
    return { finished: before - left.length, aborted: left.length };
  }

  #whenIdle(timeoutMs: number): Promise<void> {
    if (this.#runs.size === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#idle.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.#idle.add(done);
    });
  }
}
