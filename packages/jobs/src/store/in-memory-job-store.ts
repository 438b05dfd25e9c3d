import { randomUUID } from 'node:crypto';

import { systemClock, type JobClock } from '../clock/job-clock';
import { publishJobEvent } from '../diagnostics/job-channels';
import type { Job } from './job';
import type {
  ClaimJobsRequest,
  CompleteJobRequest,
  EnqueueJobRequest,
  EnqueueJobResult,
  ExtendLeaseRequest,
  FailJobRequest,
  LeasedJobStore,
  LeasedJobRequest,
  ListJobsRequest,
  PruneJobsRequest,
} from './job-store';
import { expiredLeaseError } from './lease-expired';
import { checkClaim, checkListLimit, checkPrune, normalizeEnqueue } from './normalize-enqueue';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
interface Stored extends Mutable<Job> {
  seq: number;
}

/** Options of {@link InMemoryJobStore}. */
export interface InMemoryJobStoreOptions {
  /** Time source (default: the system clock). */
  clock?: JobClock;
}

/**
 * Jobs in process memory: for tests, development and single-process apps that accept losing
 * pending jobs on exit. Same contract as the SQL store.
 *
 * @example
 * ```ts
 * const store = new InMemoryJobStore();
 * await store.enqueue({ appName: 'reports', userId: 'u1', message: userContent('Analyze Q3'), runIn: 3_600_000 });
 * ```
 */
export class InMemoryJobStore implements LeasedJobStore {
  readonly #jobs = new Map<string, Stored>();
  readonly #byUniqueKey = new Map<string, string>();
  readonly #clock: JobClock;
  #seq = 0;

  constructor(options: InMemoryJobStoreOptions = {}) {
    this.#clock = options.clock ?? systemClock;
  }

  async enqueue(request: EnqueueJobRequest): Promise<EnqueueJobResult> {
    const now = this.#clock.now();
    const input = normalizeEnqueue(request, now);
    if (input.uniqueKey !== undefined) {
      const existing = this.#byUniqueKey.get(input.uniqueKey);
      if (existing !== undefined)
        return { job: this.#copy(this.#jobs.get(existing)!), created: false };
    }
    const stored: Stored = {
      ...input,
      message: structuredClone(input.message),
      stateDelta: input.stateDelta === undefined ? undefined : structuredClone(input.stateDelta),
      id: randomUUID(),
      state: 'pending',
      attempt: 0,
      lastError: undefined,
      result: undefined,
      leaseOwner: undefined,
      leaseExpiresAt: undefined,
      createdAt: now,
      updatedAt: now,
      startedAt: undefined,
      finishedAt: undefined,
      seq: ++this.#seq,
    };
    this.#jobs.set(stored.id, stored);
    if (input.uniqueKey !== undefined) this.#byUniqueKey.set(input.uniqueKey, stored.id);
    const job = this.#copy(stored);
    publishJobEvent('enqueued', () => ({ job }));
    return { job, created: true };
  }

  async claim(request: ClaimJobsRequest): Promise<Job[]> {
    checkClaim(request);
    const now = this.#clock.now();
    const due: Stored[] = [];
    for (const job of this.#jobs.values()) {
      if (job.queue !== request.queue) continue;
      if (job.state === 'running' && job.leaseExpiresAt! <= now && job.attempt >= job.maxAttempts) {
        const workerId = job.leaseOwner ?? 'unknown';
        Object.assign(job, {
          state: 'dead',
          lastError: expiredLeaseError(job.leaseOwner),
          leaseOwner: undefined,
          leaseExpiresAt: undefined,
          updatedAt: now,
          finishedAt: now,
        });
        publishJobEvent('dead', () => ({ job: this.#copy(job), workerId }));
        continue;
      }
      const claimable =
        (job.state === 'pending' && job.runAt <= now) ||
        (job.state === 'running' && job.leaseExpiresAt! <= now);
      if (claimable) due.push(job);
    }
    due.sort((a, b) => a.priority - b.priority || a.runAt - b.runAt || a.seq - b.seq);
    return due.slice(0, request.limit).map((job) => {
      Object.assign(job, {
        state: 'running',
        attempt: job.attempt + 1,
        leaseOwner: request.workerId,
        leaseExpiresAt: now + request.leaseMs,
        startedAt: now,
        updatedAt: now,
      });
      return this.#copy(job);
    });
  }

  async extendLease(request: ExtendLeaseRequest): Promise<boolean> {
    const job = this.#leased(request);
    if (!job) return false;
    const now = this.#clock.now();
    job.leaseExpiresAt = now + request.leaseMs;
    job.updatedAt = now;
    return true;
  }

  async complete(request: CompleteJobRequest): Promise<Job | undefined> {
    return this.#finishLeased(request, {
      state: 'completed',
      result: structuredClone(request.result),
      finishedAt: this.#clock.now(),
    });
  }

  async fail(request: FailJobRequest): Promise<Job | undefined> {
    const job = this.#leased(request);
    if (!job) return undefined;
    const dead = job.attempt >= job.maxAttempts;
    return this.#finishLeased(request, {
      state: dead ? 'dead' : 'pending',
      lastError: structuredClone(request.error),
      runAt: dead ? job.runAt : Math.round(request.retryAt),
      finishedAt: dead ? this.#clock.now() : undefined,
    });
  }

  async release(request: LeasedJobRequest): Promise<Job | undefined> {
    const job = this.#leased(request);
    if (!job) return undefined;
    return this.#finishLeased(request, {
      state: 'pending',
      attempt: Math.max(0, job.attempt - 1),
      runAt: this.#clock.now(),
    });
  }

  async cancel(id: string): Promise<Job | undefined> {
    const job = this.#jobs.get(id);
    if (!job || (job.state !== 'pending' && job.state !== 'running')) return undefined;
    const now = this.#clock.now();
    Object.assign(job, {
      state: 'cancelled',
      leaseOwner: undefined,
      leaseExpiresAt: undefined,
      updatedAt: now,
      finishedAt: now,
    });
    return this.#copy(job);
  }

  async get(id: string): Promise<Job | undefined> {
    const job = this.#jobs.get(id);
    return job && this.#copy(job);
  }

  async list(request: ListJobsRequest = {}): Promise<Job[]> {
    const limit = checkListLimit(request.limit);
    const matches = [...this.#jobs.values()].filter(
      (job) =>
        (request.state === undefined || job.state === request.state) &&
        (request.queue === undefined || job.queue === request.queue) &&
        (request.appName === undefined || job.appName === request.appName),
    );
    return matches.slice(0, limit).map((job) => this.#copy(job));
  }

  async prune(request: PruneJobsRequest): Promise<number> {
    const states: readonly string[] = checkPrune(request);
    let deleted = 0;
    for (const [id, job] of this.#jobs) {
      if (!states.includes(job.state) || !(job.finishedAt! < request.finishedBefore)) continue;
      if (request.queue !== undefined && job.queue !== request.queue) continue;
      this.#jobs.delete(id);
      if (job.uniqueKey !== undefined) this.#byUniqueKey.delete(job.uniqueKey);
      deleted++;
    }
    return deleted;
  }

  async close(): Promise<void> {}

  #leased(request: LeasedJobRequest): Stored | undefined {
    const job = this.#jobs.get(request.id);
    if (!job || job.state !== 'running' || job.leaseOwner !== request.workerId) return undefined;
    // An expired lease still counts until another worker claims the job.
    return job;
  }

  #finishLeased(request: LeasedJobRequest, changes: Partial<Stored>): Job | undefined {
    const job = this.#leased(request);
    if (!job) return undefined;
    Object.assign(job, changes, {
      leaseOwner: undefined,
      leaseExpiresAt: undefined,
      updatedAt: this.#clock.now(),
    });
    return this.#copy(job);
  }

  #copy(stored: Stored): Job {
    const { seq: _seq, ...job } = stored;
    return structuredClone(job);
  }
}
