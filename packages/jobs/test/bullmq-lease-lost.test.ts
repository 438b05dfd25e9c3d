import { REDIS_URL, dropRedisPrefix, redisPrefix, redisUnavailable } from '@adk/test-databases';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

import { subscribeJobEvents } from '../src';
import { BullMqJobStore } from '../src/bullmq';
import { parkedJob, stoppedThenCompleted } from './fixtures/agents';
import { until } from './fixtures/until';

// Under CI=true an unreachable Redis throws here: its tests fail, never skip.
const skip = await redisUnavailable();
const prefix = redisPrefix('lease-lost');
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (skip === undefined) await dropRedisPrefix(prefix);
});

describe.skipIf(skip !== undefined)('BullMqJobStore: a run whose lock lapsed', () => {
  it('is aborted when BullMQ fails to renew its lock; the job runs again and completes, never twice at once', async () => {
    // What a process that stalls past its lease meets: BullMQ cannot renew the job's lock, and its
    // stalled check hands the job out again. The lock is removed here while the run waits.
    const leaseMs = 3000;
    const queue = `lapsed-${Date.now()}`;
    const jobs = new BullMqJobStore({ url: REDIS_URL, prefix });
    cleanups.push(() => jobs.close());
    const released: string[] = [];
    cleanups.push(
      subscribeJobEvents('released', ({ job: which, reason }) => {
        if (which.queue === queue) released.push(reason);
      }),
    );
    const { job, gate } = await parkedJob(jobs, queue, leaseMs, cleanups);
    const redis = new Redis(REDIS_URL);
    const removed = await redis.del(`${prefix}:${queue}:${job.id}:lock`);
    await redis.quit();
    expect(removed).toBe(1);
    // BullMQ renews locks every half lease: the failed renewal aborts the run, whose gated tool
    // sees its signal and returns.
    const done = await stoppedThenCompleted(jobs, job, gate, leaseMs * 5);
    await until(
      () => Promise.resolve(released),
      (reasons) => reasons.includes('lease-lost'),
      leaseMs * 5,
    );
    expect(done).toMatchObject({ state: 'completed', result: { finalText: 'done' } });
    expect(gate.maxActive()).toBe(1);
  });
});
