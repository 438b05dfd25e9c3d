import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

import { userContent } from '@adk/core';
import { BullMqJobStore } from '@adk/jobs/bullmq';
import { REDIS_URL, dropRedisPrefix, redisPrefix, redisUnavailable } from '@adk/test-databases';
import { afterAll, describe, expect, it } from 'vitest';

import { main, openJobStore, runWorker, UsageError } from '../src';

const agentsDir = join(fileURLToPath(new URL('./fixtures/', import.meta.url)), 'agents');
const prefix = redisPrefix('cli');

const skip = await redisUnavailable();

afterAll(async () => {
  if (skip === undefined) await dropRedisPrefix(prefix);
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
      await expect.poll(async () => (await store.get(job.id))?.state).toBe('completed');
      expect(await store.get(job.id)).toMatchObject({
        state: 'completed',
        result: { finalText: 'Hello there!' },
      });
    } finally {
      await handle.close();
      await store.close();
    }
  });
});
