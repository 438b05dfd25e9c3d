import type { Job as BullJob } from 'bullmq';
import type { Redis } from 'ioredis';

import type { Job, JobResult } from '../store/job';
import type { ListJobsRequest } from '../store/job-store';
import type { BullJobData } from './bullmq-rows';

/**
 * What {@link listInOrder} and the prune need from `BullMqJobStore`: its connection, its key
 * names, its queues and its reads.
 */
export interface BullMqOrderContext {
  redis: Redis;
  /** `<prefix>:adk:<suffix>`. */
  key: (suffix: string) => string;
  knownQueues: () => Promise<string[]>;
  /** A job by id (tombstone or BullMQ job), or undefined. */
  get: (id: string) => Promise<Job | undefined>;
  /** A job of a queue by id, its tombstone first. */
  read: (queue: string, id: string) => Promise<Job | undefined>;
  schedulers: (queue: string) => Promise<{ key: string; next?: number }[]>;
}

/**
 * The enqueue order of the jobs, kept beside BullMQ's own sets (which are ordered by state: FIFO
 * lists, delays, priorities, finish times): a sorted set per queue and one for all queues, scored
 * by `createdAt`, members `<seq, 16 digits>:<id>` so jobs enqueued in the same millisecond sort by
 * enqueue sequence. `list` pages through it with `ZRANGE`, reading O(page) jobs.
 */
export function orderMember(seq: number, id: string): string {
  return `${String(seq).padStart(16, '0')}:${id}`;
}

/** The job id of an order member. */
function idOf(member: string): string {
  return member.slice(17);
}

/** The order keys of a job: all queues', and its queue's. */
export function orderKeys(context: Pick<BullMqOrderContext, 'key'>, queue: string): string[] {
  return [context.key('order'), context.key(`order:${queue}`)];
}

/**
 * Enqueue bookkeeping in one round trip: the next sequence number, the job's queue in the id
 * index, the queue in the set of queues, and the job in both order sets. Returns the sequence. On
 * an empty index (a new prefix) it also marks the order sets complete (`KEYS[6]`): no older job
 * needs to join them.
 */
export const ENQUEUE_SCRIPT = `
if redis.call('HLEN', KEYS[2]) == 0 then redis.call('SET', KEYS[6], '1') end
local seq = redis.call('INCR', KEYS[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('SADD', KEYS[3], ARGV[2])
local member = string.format('%016d', seq) .. ':' .. ARGV[1]
redis.call('ZADD', KEYS[4], ARGV[3], member)
redis.call('ZADD', KEYS[5], ARGV[3], member)
return seq`;

function matches(job: Job, request: ListJobsRequest): boolean {
  return (
    (request.state === undefined || job.state === request.state) &&
    (request.appName === undefined || job.appName === request.appName)
  );
}

/**
 * The jobs of `request` in enqueue order, paging through the order set: a call reads the jobs of
 * the pages it goes through (the first `limit` members without a state or app filter), plus the
 * next occurrence of each job scheduler (BullMQ creates those jobs itself: they join the order set
 * when they run).
 */
export async function listInOrder(
  context: BullMqOrderContext,
  request: ListJobsRequest,
  limit: number,
): Promise<Job[]> {
  const key =
    request.queue === undefined ? context.key('order') : context.key(`order:${request.queue}`);
  const filtered = request.state !== undefined || request.appName !== undefined;
  const page = filtered ? Math.min(Math.max(limit, 100), 1000) : limit;
  const found: { job: Job; member: string }[] = [];
  for (let start = 0; found.length < limit; start += page) {
    const members = await context.redis.zrange(key, start, start + page - 1);
    const jobs = await Promise.all(members.map((member) => context.get(idOf(member))));
    members.forEach((member, index) => {
      const job = jobs[index];
      if (job && matches(job, request)) found.push({ job, member });
    });
    if (members.length < page) break;
  }
  const queues = request.queue === undefined ? await context.knownQueues() : [request.queue];
  for (const queue of queues) {
    for (const scheduler of await context.schedulers(queue)) {
      if (scheduler.next === undefined) continue;
      const id = `repeat:${scheduler.key}:${scheduler.next}`;
      const job = await context.read(queue, id);
      if (!job || !matches(job, request) || found.some((entry) => entry.job.id === id)) continue;
      found.push({ job, member: orderMember(0, id) });
    }
  }
  return found
    .sort((a, b) => a.job.createdAt - b.job.createdAt || (a.member < b.member ? -1 : 1))
    .slice(0, limit)
    .map((entry) => entry.job);
}

/** Put a job BullMQ created (a job scheduler's) into the order sets, when it is not there. */
export async function orderSchedulerJob(
  context: Pick<BullMqOrderContext, 'redis' | 'key'>,
  bull: BullJob<BullJobData, JobResult>,
): Promise<void> {
  const member = orderMember(0, bull.id!);
  const multi = context.redis.multi();
  for (const key of orderKeys(context, bull.queueName))
    multi.zadd(key, 'NX', bull.data.createdAt || bull.timestamp, member);
  await multi.hset(context.key('index'), bull.id!, bull.queueName).exec();
}
