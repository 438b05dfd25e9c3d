import {
  AdkError,
  SessionNotFoundError,
  type Content,
  type Session,
  type SessionService,
} from '@adk/core';

import type { MemoryChange, MemoryExtractor } from './memory-extractor';

/** A job as {@link BackgroundMemoryExtraction} reads it (an `@adk/jobs` `Job` fits). */
export interface ExtractionJob {
  readonly id: string;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string | undefined;
}

/**
 * The part of an `@adk/jobs` store that background extraction uses: any `LeasedJobStore`
 * (`SqlJobStore` on embedded SQLite or PostgreSQL, `InMemoryJobStore`) fits, and `@adk/memory`
 * does not depend on `@adk/jobs`.
 */
export interface ExtractionJobStore {
  enqueue(request: {
    appName: string;
    userId: string;
    sessionId?: string;
    message: Content;
    queue?: string;
    maxAttempts?: number;
  }): Promise<{ job: ExtractionJob }>;
  claim(request: {
    queue: string;
    workerId: string;
    leaseMs: number;
    limit: number;
  }): Promise<readonly ExtractionJob[]>;
  complete(request: {
    id: string;
    workerId: string;
    result: { finalText: string; eventCount: number; sessionId: string };
  }): Promise<unknown>;
  fail(request: {
    id: string;
    workerId: string;
    error: { name: string; message: string; code?: string };
    retryAt: number;
  }): Promise<unknown>;
}

/** Options of {@link BackgroundMemoryExtraction}. */
export interface BackgroundMemoryExtractionOptions {
  extractor: MemoryExtractor;
  /** Where a job reads the session it extracts (the one the runner writes to). */
  sessionService: Pick<SessionService, 'getSession'>;
  /** With a store, extraction is a job run by {@link BackgroundMemoryExtraction.runDue}; without, inline. */
  jobStore?: ExtractionJobStore;
  /** The queue of extraction jobs (default `memory-extraction`, apart from agent runs). */
  queue?: string;
  /** Attempts per session before the job is dead (default 3). */
  maxAttempts?: number;
  /** Wait before a failed extraction is tried again, in ms (default 30 s). */
  retryDelayMs?: number;
  /** Lease of a running extraction, in ms (default 5 minutes). */
  leaseMs?: number;
  /** This process's id as the owner of its leases (default: a random one). */
  workerId?: string;
}

/** What {@link BackgroundMemoryExtraction.schedule} did: queued a job, or extracted inline. */
export type ScheduledExtraction = { jobId: string } | { changes: MemoryChange[] };

/**
 * Runs {@link MemoryExtractor} after a session, in the background through an `@adk/jobs` store when
 * one is given, so a slow extraction model never holds up the turn: `schedule(session)` only
 * enqueues a job (queue `memory-extraction`), and `runDue()` (or the poll of `start()`) claims the
 * due jobs, reads each session again and extracts it, retrying a failure after `retryDelayMs` until
 * `maxAttempts`. Without a store, `schedule` extracts inline as `MemoryExtractor.extract` does.
 * Give it to `MemoryIngestionPlugin` as `extraction` to schedule after every run.
 *
 * @example
 * ```ts
 * const extraction = new BackgroundMemoryExtraction({ extractor, sessionService, jobStore });
 * extraction.start(); // or call runDue() from your own worker loop
 * const runner = new Runner({ ..., plugins: [new MemoryIngestionPlugin({ extraction })] });
 * ```
 */
export class BackgroundMemoryExtraction {
  readonly #options: BackgroundMemoryExtractionOptions;
  readonly #queue: string;
  readonly #workerId: string;
  #timer: ReturnType<typeof setInterval> | undefined;
  #draining: Promise<number> | undefined;

  constructor(options: BackgroundMemoryExtractionOptions) {
    this.#options = options;
    this.#queue = options.queue ?? 'memory-extraction';
    this.#workerId = options.workerId ?? `memory-${crypto.randomUUID()}`;
  }

  /**
   * Extract `session`'s memories: enqueue a job when there is a job store (returns its id at once),
   * else extract now (returns the changes).
   *
   * @throws {MemoryExtractionError} inline only, when the model's answer is not the expected JSON.
   */
  async schedule(session: Session): Promise<ScheduledExtraction> {
    const { jobStore, extractor, maxAttempts } = this.#options;
    if (!jobStore) return { changes: await extractor.extract(session) };
    const { job } = await jobStore.enqueue({
      appName: session.appName,
      userId: session.userId,
      sessionId: session.id,
      queue: this.#queue,
      maxAttempts: maxAttempts ?? 3,
      message: {
        role: 'user',
        parts: [{ text: `Extract the memories of session ${session.id}.` }],
      },
    });
    return { jobId: job.id };
  }

  /** Claim the due extraction jobs (at most `limit`) and run them one by one; returns how many ran. */
  async runDue(limit = 10): Promise<number> {
    const { jobStore } = this.#options;
    if (!jobStore) return 0;
    const jobs = await jobStore.claim({
      queue: this.#queue,
      workerId: this.#workerId,
      leaseMs: this.#options.leaseMs ?? 300_000,
      limit,
    });
    for (const job of jobs) await this.#run(jobStore, job);
    return jobs.length;
  }

  /** Poll for due extraction jobs every `intervalMs` (default 1 s) until {@link stop}. */
  start(intervalMs = 1000): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.#draining ??= this.runDue()
        .catch(() => 0)
        .finally(() => (this.#draining = undefined));
    }, intervalMs);
    this.#timer.unref?.();
  }

  /** Stop polling and wait for the extractions under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#draining;
  }

  async #run(jobStore: ExtractionJobStore, job: ExtractionJob): Promise<void> {
    const sessionId = job.sessionId ?? '';
    try {
      const key = { appName: job.appName, userId: job.userId, sessionId };
      const session = await this.#options.sessionService.getSession(key);
      if (!session) throw new SessionNotFoundError(key);
      const changes = await this.#options.extractor.extract(session);
      await jobStore.complete({
        id: job.id,
        workerId: this.#workerId,
        result: {
          finalText: JSON.stringify(changes),
          eventCount: changes.length,
          sessionId,
        },
      });
    } catch (error) {
      await jobStore.fail({
        id: job.id,
        workerId: this.#workerId,
        error: {
          name: error instanceof Error ? error.name : 'Error',
          message: error instanceof Error ? error.message : String(error),
          ...(AdkError.isInstance(error) ? { code: error.code } : {}),
        },
        retryAt: Date.now() + (this.#options.retryDelayMs ?? 30_000),
      });
    }
  }
}
