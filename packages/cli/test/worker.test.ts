import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

import { userContent } from '@adk/core';
import { BullMqJobStore } from '@adk/jobs/bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

import { main, openJobStore, runWorker, UsageError } from '../src';

const REDIS_URL = process.env.ADK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const agentsDir = join(fileURLToPath(new URL('./fixtures/', import.meta.url)), 'agents');
const prefix = `adk-test-cli-${randomBytes(4).toString('hex')}`;

/** Under CI=true an unreachable Redis fails the tests; elsewhere they are skipped. */
async function redisUnavailable(): Promise<string | undefined> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
    return undefined;
  } catch (error) {
    if (process.env.CI === 'true')
      throw new Error(`Redis is required under CI=true: ${String(error)}`);
    return String(error);
  } finally {
    redis.disconnect();
  }
}
const skip = await redisUnavailable();

afterAll(async () => {
  if (skip !== undefined) return;
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('adk worker', () => {
  it('refuses a queue URL of another kind, and a missing one', async () => {
    await expect(openJobStore('mysql://x')).rejects.toSatisfy(UsageError.isInstance);
    expect(await main(['worker', agentsDir], {})).toBe(2);
  });

  it.skipIf(skip !== undefined)('runs the jobs of a folder of agents from Redis', async () => {
    const handle = await runWorker({ agentsDir, queueUrl: REDIS_URL, queueNamespace: prefix });
    const store = new BullMqJobStore({ url: REDIS_URL, prefix });
    try {
      expect(handle.apps).toContain('greeter');
      const { job } = await store.enqueue({
        appName: 'greeter',
        userId: 'u1',
        message: userContent('Hi'),
      });
      let done = await store.get(job.id);
      for (let i = 0; i < 200 && done?.state !== 'completed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        done = await store.get(job.id);
      }
      expect(done).toMatchObject({ state: 'completed', result: { finalText: 'Hello there!' } });
    } finally {
      await handle.close();
      await store.close();
    }
  });
});
