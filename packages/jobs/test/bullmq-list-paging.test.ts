import { userContent } from '@adk/core';
import { Redis } from 'ioredis';
import { REDIS_URL, dropRedisPrefix, redisPrefix, redisUnavailable } from '@adk/test-databases';
import { afterAll, describe, expect, it } from 'vitest';

import { BullMqJobStore } from '../src/bullmq';

// Under CI=true an unreachable Redis throws here: its tests fail, never skip.
const skip = await redisUnavailable();
const prefix = redisPrefix('paging');
const JOBS = 3000;

/** A connection that counts the commands sent through it. */
function countingConnection(): { redis: Redis; sent: () => number } {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  let count = 0;
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
    count++;
    return send(...args);
  }) as Redis['sendCommand'];
  return { redis, sent: () => count };
}

const { redis, sent } = countingConnection();
const store = new BullMqJobStore({ connection: redis, prefix });
afterAll(async () => {
  await store.close();
  await redis.quit();
  if (skip === undefined) await dropRedisPrefix(prefix);
});

async function commands<T>(call: () => Promise<T>): Promise<{ value: T; count: number }> {
  const before = sent();
  const value = await call();
  return { value, count: sent() - before };
}

describe.skipIf(skip !== undefined)('BullMqJobStore on a queue of thousands of jobs', () => {
  const texts = (jobs: { message: { parts: { text?: string }[] } }[]) =>
    jobs.map((job) => job.message.parts[0]?.text);
  const ids: string[] = [];

  it('list reads about one page of jobs, in enqueue order', async () => {
    for (let start = 0; start < JOBS; start += 200) {
      const batch = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          store.enqueue({
            queue: 'big',
            appName: (start + i) % 2 === 0 ? 'even' : 'odd',
            userId: 'u1',
            message: userContent(`job ${start + i}`),
            runIn: 3_600_000,
          }),
        ),
      );
      ids.push(...batch.map(({ job }) => job.id));
    }
    await store.enqueue({
      queue: 'small',
      appName: 'even',
      userId: 'u1',
      message: userContent('x'),
    });
    await store.cancel(ids[3]!);

    const first = await commands(() => store.list({ queue: 'big', limit: 10 }));
    expect(texts(first.value)).toEqual(Array.from({ length: 10 }, (_, i) => `job ${i}`));
    expect(first.value.map((job) => job.state)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i === 3 ? 'cancelled' : 'pending')),
    );
    // A few commands per listed job (its tombstone, index, hash and state), not per queued job.
    expect(first.count).toBeLessThan(100);

    const everywhere = await commands(() => store.list({ limit: 5 }));
    expect(texts(everywhere.value)).toEqual(['job 0', 'job 1', 'job 2', 'job 3', 'job 4']);
    expect(everywhere.count).toBeLessThan(100);

    // A filter reads pages of 100 until the limit is met.
    const odd = await commands(() => store.list({ queue: 'big', appName: 'odd', limit: 20 }));
    expect(texts(odd.value)).toEqual(Array.from({ length: 20 }, (_, i) => `job ${2 * i + 1}`));
    expect(odd.count).toBeLessThan(600);

    const cancelled = await store.list({ queue: 'big', state: 'cancelled' });
    expect(cancelled.map((job) => job.id)).toEqual([ids[3]]);
    const all = await store.list({ queue: 'big', limit: JOBS + 10 });
    expect(all.map((job) => job.id)).toEqual(ids);
  });

  it('prune reads the finished jobs, not the queue', async () => {
    for (const id of ids.slice(100, 120)) await store.cancel(id);
    const pruned = await commands(() =>
      store.prune({ queue: 'big', finishedBefore: Date.now() + 1000 }),
    );
    expect(pruned.value).toBe(21);
    expect(pruned.count).toBeLessThan(300);
    expect(await store.list({ queue: 'big', state: 'cancelled' })).toEqual([]);
    const left = await store.list({ queue: 'big', limit: 5 });
    expect(texts(left)).toEqual(['job 0', 'job 1', 'job 2', 'job 4', 'job 5']);
    expect((await store.list({ queue: 'big', limit: JOBS })).length).toBe(JOBS - 21);
  });
});

describe.skipIf(skip !== undefined)('BullMqJobStore on a Redis written by an older version', () => {
  it('jobs enqueued before the order sets join them at the first list', async () => {
    const old = redisPrefix('older');
    const writer = new BullMqJobStore({ url: REDIS_URL, prefix: old });
    try {
      for (const text of ['a', 'b', 'c'])
        await writer.enqueue({
          queue: 'q',
          appName: 'app',
          userId: 'u1',
          message: userContent(text),
          runIn: 60_000,
        });
      // What an older version left: no order sets, no mark.
      await redis.del(`${old}:adk:order`, `${old}:adk:order:q`, `${old}:adk:order:v1`);
      const reader = new BullMqJobStore({ url: REDIS_URL, prefix: old });
      const listed = await reader.list({ queue: 'q' });
      await reader.close();
      expect(listed.map((job) => job.message.parts[0]?.text)).toEqual(['a', 'b', 'c']);
      expect(await redis.exists(`${old}:adk:order:v1`)).toBe(1);
    } finally {
      await writer.close();
      await dropRedisPrefix(old);
    }
  });
});
