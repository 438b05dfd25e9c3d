import { randomUUID } from 'node:crypto';

import { InvalidArgumentError } from '@adk/core';
import { Queue, type Job as BullJob } from 'bullmq';
import { Redis } from 'ioredis';

import { systemClock, type JobClock } from '../clock/job-clock';
import { publishJobEvent } from '../diagnostics/job-channels';
import type { Job, JobResult } from '../store/job';
import type {
  EnqueueJobRequest,
  EnqueueJobResult,
  ListJobsRequest,
  PruneJobsRequest,
} from '../store/job-store';
import { checkListLimit, checkPrune, normalizeEnqueue } from '../store/normalize-enqueue';
import type { ConsumeRequest, JobConsumer, QueueEngineJobStore } from '../store/queue-engine';
import { BullMqConsumer } from './bullmq-consumer';
import { ADK_BACKOFF, type BullMqStoreHost } from './bullmq-host';
import { BullMqCron, type BullMqCronOptions } from './bullmq-cron';
import {
  ENQUEUE_SCRIPT,
  listInOrder,
  orderKeys,
  orderMember,
  orderSchedulerJob,
  type BullMqOrderContext,
} from './bullmq-order';
import { bullToJob, type BullJobData } from './bullmq-rows';

/** Options of {@link BullMqJobStore}. */
export interface BullMqJobStoreOptions {
  /** `redis://…` URL; the store then owns its connection. Give this or `connection`. */
  url?: string;
  /** Your ioredis connection (BullMQ needs `maxRetriesPerRequest: null` on it). */
  connection?: Redis;
  /** Prefix of every Redis key (default `adk`); BullMQ's keys are `<prefix>:<queue>:…`. */
  prefix?: string;
  /** Time of `runAt` and `createdAt` (default: the system clock). */
  clock?: JobClock;
}

/** BullMQ's largest priority. */
const MAX_PRIORITY = 2_097_152;
/** How many jobs `prune` reads and deletes at a time. */
const PRUNE_BATCH = 500;
/** BullMQ's states that hold jobs, as `getJobs` names them. */
const BULL_STATES = ['active', 'waiting', 'prioritized', 'delayed', 'completed', 'failed'] as const;

/**
 * Jobs on Redis through [BullMQ](https://docs.bullmq.io): each ADK queue is a BullMQ queue, jobs
 * are pushed to workers by blocking pops, delayed, prioritized, retried with the worker's backoff,
 * and deduplicated by unique key. A cancelled job is removed from BullMQ (or, when running, left to
 * end) and kept as a tombstone, so `get` and `list` still show it until `prune`.
 *
 * @example
 * ```ts
 * const store = new BullMqJobStore({ url: 'redis://127.0.0.1:6379' });
 * const worker = new JobWorker({ store, runners: [runner], queues: { default: 5 } });
 * worker.start();
 * ```
 */
export class BullMqJobStore implements QueueEngineJobStore, BullMqStoreHost {
  readonly engine = 'bullmq';
  readonly prefix: string;
  readonly #redis: Redis;
  readonly #ownsConnection: boolean;
  readonly #clock: JobClock;
  readonly #queues = new Map<string, Queue<BullJobData, JobResult>>();
  readonly #context: BullMqOrderContext;
  #ordered: Promise<void> | undefined;

  /** @throws InvalidArgumentError without a URL or connection. */
  constructor(options: BullMqJobStoreOptions) {
    if (!options.url && !options.connection)
      throw new InvalidArgumentError({
        argument: 'url',
        message: 'BullMqJobStore needs a url or a connection.',
      });
    this.prefix = options.prefix ?? 'adk';
    this.#ownsConnection = !options.connection;
    this.#redis = options.connection ?? new Redis(options.url!, { maxRetriesPerRequest: null });
    this.#clock = options.clock ?? systemClock;
    this.#context = {
      redis: this.#redis,
      key: (suffix) => this.#key(suffix),
      knownQueues: () => this.#knownQueues(),
      get: (id) => this.get(id),
      read: async (queue, id) => {
        const tombstone = await this.#redis.hget(this.#key('cancelled'), id);
        return tombstone === null ? this.#read(queue, id) : fromTombstone(tombstone);
      },
      schedulers: async (queue) =>
        (await this.queue(queue).getJobSchedulers()).map(({ key, next }) => ({ key, next })),
    };
  }

  /** The ioredis connection (BullMQ workers duplicate it for their blocking pops). */
  get connection(): Redis {
    return this.#redis;
  }

  /** The BullMQ queue of an ADK queue (created on first use). */
  queue(name: string): Queue<BullJobData, JobResult> {
    let queue = this.#queues.get(name);
    if (!queue) {
      queue = new Queue<BullJobData, JobResult>(name, {
        connection: this.#redis,
        prefix: this.prefix,
      });
      this.#queues.set(name, queue);
    }
    return queue;
  }

  #key(suffix: string): string {
    return `${this.prefix}:adk:${suffix}`;
  }

  async enqueue(request: EnqueueJobRequest): Promise<EnqueueJobResult> {
    const now = this.#clock.now();
    const input = normalizeEnqueue(request, now);
    if (input.priority < 0 || input.priority > MAX_PRIORITY)
      throw new InvalidArgumentError({
        argument: 'priority',
        message: `BullMQ priorities run from 0 (first) to ${MAX_PRIORITY}.`,
      });
    let id: string = randomUUID();
    if (input.uniqueKey !== undefined) {
      const claimed = await this.#redis.set(this.#key(`unique:${input.uniqueKey}`), id, 'NX');
      if (claimed === null) {
        const existing = await this.#redis.get(this.#key(`unique:${input.uniqueKey}`));
        const job = existing === null ? undefined : await this.#waitFor(existing);
        if (job) return { job, created: false };
        id = existing ?? id;
      }
    }
    const seq = (await this.#redis.eval(
      ENQUEUE_SCRIPT,
      6,
      this.#key('seq'),
      this.#key('index'),
      this.#key('queues'),
      ...orderKeys(this.#context, input.queue),
      this.#key('order:v1'),
      id,
      input.queue,
      now,
    )) as number;
    const data: BullJobData = {
      appName: input.appName,
      userId: input.userId,
      message: input.message,
      priority: input.priority,
      runAt: input.runAt,
      createdAt: now,
      seq,
      ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
      ...(input.stateDelta === undefined ? {} : { stateDelta: input.stateDelta }),
      ...(input.uniqueKey === undefined ? {} : { uniqueKey: input.uniqueKey }),
    };
    const added = await this.queue(input.queue).add('adk', data, {
      jobId: id,
      priority: input.priority,
      delay: Math.max(0, input.runAt - Date.now()),
      attempts: input.maxAttempts,
      backoff: { type: ADK_BACKOFF },
      removeOnComplete: false,
      removeOnFail: false,
    });
    const job = bullToJob(added, 'waiting');
    publishJobEvent('enqueued', () => ({ job }));
    return { job, created: true };
  }

  /** A job another enqueue is adding under the same unique key (it appears within moments). */
  async #waitFor(id: string): Promise<Job | undefined> {
    for (let i = 0; i < 50; i++) {
      const job = await this.get(id);
      if (job) return job;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return undefined;
  }

  async cancel(id: string): Promise<Job | undefined> {
    const current = await this.get(id);
    if (!current || (current.state !== 'pending' && current.state !== 'running')) return undefined;
    const now = this.#clock.now();
    const cancelled: Job & { seq?: number } = {
      ...current,
      seq: await this.#sequenceOf(current),
      state: 'cancelled',
      finishedAt: now,
      updatedAt: now,
      leaseOwner: undefined,
    };
    const set = await this.#redis.hsetnx(this.#key('cancelled'), id, JSON.stringify(cancelled));
    if (set === 0) return undefined;
    // A running job is locked: its worker sees the tombstone, aborts the run and lets it end.
    if (current.state === 'pending')
      await this.queue(current.queue)
        .remove(id)
        .catch(() => undefined);
    const { seq: _seq, ...job } = cancelled;
    return job;
  }

  async #sequenceOf(job: Job): Promise<number> {
    const bull = await this.queue(job.queue).getJob(job.id);
    return (bull?.data as BullJobData | undefined)?.seq ?? 0;
  }

  async get(id: string): Promise<Job | undefined> {
    const [tombstone, queue] = await Promise.all([
      this.#redis.hget(this.#key('cancelled'), id),
      this.#redis.hget(this.#key('index'), id),
    ]);
    if (tombstone !== null) return fromTombstone(tombstone);
    const queues = queue === null ? await this.#knownQueues() : [queue];
    for (const name of queues) {
      const job = await this.#read(name, id);
      if (job) return job;
    }
    return undefined;
  }

  async #read(queue: string, id: string): Promise<Job | undefined> {
    const fetch = async () =>
      (await this.queue(queue).getJob(id)) as BullJob<BullJobData, JobResult> | undefined;
    let bull = await fetch();
    if (!bull) return undefined;
    const state = await bull.getState();
    // The job's data and its state are two reads: a job that finished between them reads as
    // finished with the data of its run (no result yet). Read the data again, now final.
    if ((state === 'completed' || state === 'failed') && !bull.finishedOn)
      bull = (await fetch()) ?? bull;
    return bullToJob(bull, state);
  }

  async #knownQueues(): Promise<string[]> {
    return this.#redis.smembers(this.#key('queues'));
  }

  async list(request: ListJobsRequest = {}): Promise<Job[]> {
    const limit = checkListLimit(request.limit);
    await this.#ensureOrder();
    return listInOrder(this.#context, request, limit);
  }

  /**
   * Deletes in batches of {@link PRUNE_BATCH}, reading only candidates: BullMQ's completed and
   * failed sets by finish time (`ZRANGEBYSCORE`), and the cancellation tombstones (`HSCAN`).
   */
  async prune(request: PruneJobsRequest): Promise<number> {
    const states = checkPrune(request);
    await this.#ensureOrder();
    const { finishedBefore } = request;
    let pruned = 0;
    const sets = (['completed', 'dead'] as const).filter((state) => states.includes(state));
    const queues = request.queue === undefined ? await this.#knownQueues() : [request.queue];
    for (const name of queues) {
      const queue = this.queue(name);
      for (const state of sets) {
        const set = state === 'completed' ? queue.keys.completed! : queue.keys.failed!;
        for (let offset = 0; ;) {
          const ids = await this.#redis.zrangebyscore(
            set,
            '-inf',
            `(${finishedBefore}`,
            'LIMIT',
            offset,
            PRUNE_BATCH,
          );
          const cancelled = await this.isCancelled(ids);
          const bulls = await Promise.all(ids.map((id) => queue.getJob(id)));
          const doomed = bulls.filter(
            (bull): bull is BullJob<BullJobData, JobResult> =>
              bull !== undefined &&
              !cancelled.has(bull.id!) &&
              bullToJob(bull, state === 'completed' ? 'completed' : 'failed').state === state,
          );
          await Promise.all(
            doomed.map((bull) => this.#remove(bullToJob(bull, state), bull.data.seq)),
          );
          pruned += doomed.length;
          offset += ids.length - doomed.length;
          if (ids.length < PRUNE_BATCH) break;
        }
      }
    }
    if (!states.includes('cancelled')) return pruned;
    let cursor = '0';
    do {
      const [next, flat] = await this.#redis.hscan(
        this.#key('cancelled'),
        cursor,
        'COUNT',
        PRUNE_BATCH,
      );
      cursor = next;
      const doomed: (Job & { seq?: number })[] = [];
      for (let i = 1; i < flat.length; i += 2) {
        const job = JSON.parse(flat[i]!) as Job & { seq?: number };
        if (request.queue !== undefined && job.queue !== request.queue) continue;
        if ((job.finishedAt ?? Infinity) < finishedBefore) doomed.push(job);
      }
      await Promise.all(doomed.map(({ seq, ...job }) => this.#remove(job, seq)));
      pruned += doomed.length;
    } while (cursor !== '0');
    return pruned;
  }

  /** Delete a finished job from BullMQ and from ADK's tombstones, index, order and unique keys. */
  async #remove(job: Job, seq: number | undefined): Promise<void> {
    await this.queue(job.queue)
      .remove(job.id)
      .catch(() => undefined);
    const member = orderMember(seq ?? 0, job.id);
    const multi = this.#redis
      .multi()
      .hdel(this.#key('cancelled'), job.id)
      .hdel(this.#key('index'), job.id);
    for (const key of orderKeys(this.#context, job.queue)) multi.zrem(key, member);
    if (job.uniqueKey !== undefined) multi.del(this.#key(`unique:${job.uniqueKey}`));
    await multi.exec();
  }

  /**
   * Jobs enqueued before the order sets existed (an older `@adk/jobs` on this Redis) join them
   * once: the first list or prune reads every job of every queue, then marks the order complete.
   */
  #ensureOrder(): Promise<void> {
    this.#ordered ??= (async () => {
      if ((await this.#redis.exists(this.#key('order:v1'))) === 1) return;
      const multi = this.#redis.multi();
      for (const name of await this.#knownQueues()) {
        const bulls = (await this.queue(name).getJobs([...BULL_STATES])) as BullJob<
          BullJobData,
          JobResult
        >[];
        for (const bull of bulls.filter((bull) => bull?.id))
          for (const key of orderKeys(this.#context, name))
            multi.zadd(
              key,
              'NX',
              bull.data.createdAt || bull.timestamp,
              orderMember(bull.data.seq ?? 0, bull.id!),
            );
      }
      for (const text of Object.values(await this.#redis.hgetall(this.#key('cancelled')))) {
        const job = JSON.parse(text) as Job & { seq?: number };
        for (const key of orderKeys(this.#context, job.queue))
          multi.zadd(key, 'NX', job.createdAt, orderMember(job.seq ?? 0, job.id));
      }
      await multi.set(this.#key('order:v1'), '1').exec();
    })().catch((error: unknown) => {
      this.#ordered = undefined;
      throw error;
    });
    return this.#ordered;
  }

  async countActive(queue: string): Promise<number> {
    const counts = await this.queue(queue).getJobCounts('active', 'waiting', 'prioritized');
    return (counts.active ?? 0) + (counts.waiting ?? 0) + (counts.prioritized ?? 0);
  }

  /**
   * Give a job a job scheduler created its place in the enqueue order, for `list` (called by the
   * worker that runs it; other jobs get theirs when enqueued).
   */
  async orderScheduled(bull: BullJob<BullJobData, JobResult>): Promise<void> {
    await orderSchedulerJob(this.#context, bull);
  }

  /** True when the job has a cancellation tombstone (checked by running workers). */
  async isCancelled(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const values = await this.#redis.hmget(this.#key('cancelled'), ...ids);
    return new Set(ids.filter((_, index) => values[index] !== null));
  }

  async consume(request: ConsumeRequest): Promise<JobConsumer> {
    const consumer = new BullMqConsumer({ store: this, request });
    await consumer.start();
    return consumer;
  }

  /**
   * Enqueue a job per occurrence of each schedule through BullMQ's job schedulers
   * (`upsertJobScheduler`, UTC): any number of processes may call it, each occurrence is enqueued
   * once. Resolves once the schedulers are stored; they live in Redis until removed with
   * `unschedule`.
   */
  async schedule(options: BullMqCronOptions): Promise<void> {
    await new BullMqCron(this).upsert(options);
  }

  /** Remove the job schedulers of the given names from a queue. */
  async unschedule(queue: string, names: readonly string[]): Promise<void> {
    for (const name of names) await this.queue(queue).removeJobScheduler(name);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#queues.values()].map((queue) => queue.close()));
    this.#queues.clear();
    if (this.#ownsConnection) await this.#redis.quit();
  }
}

/** A cancelled job's tombstone (the job as cancelled, with its enqueue order) as a {@link Job}. */
function fromTombstone(text: string): Job {
  const { seq: _seq, ...job } = JSON.parse(text) as Job & { seq?: number };
  return job;
}
