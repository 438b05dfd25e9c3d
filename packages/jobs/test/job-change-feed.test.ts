import diagnosticsChannel from 'node:diagnostics_channel';

import {
  POSTGRES_URL,
  REDIS_URL,
  postgresUnavailable,
  redisUnavailable,
} from '@adk/test-databases';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';

import { publishJobChanges, type JobChange, type JobChangeFeed } from '../src';
import { RedisJobChangeFeed } from '../src/bullmq';
import { PostgresJobChangeFeed } from '../src/graphile';

const noPostgres = await postgresUnavailable();
const noRedis = await redisUnavailable();

/** Two processes' feeds on one channel: what one publishes, the other receives, not itself. */
async function exchange(open: () => Promise<JobChangeFeed>): Promise<void> {
  const a = await open();
  const b = await open();
  try {
    const atA: JobChange[] = [];
    const atB: JobChange[] = [];
    a.subscribe((change) => atA.push(change));
    b.subscribe((change) => atB.push(change));
    // Each feed starts listening on its first subscriber and then reports a change of an unknown
    // app (what changed before was not heard).
    await expect.poll(() => atA).toEqual([{ appName: undefined }]);
    await expect.poll(() => atB).toEqual([{ appName: undefined }]);
    atA.length = 0;
    atB.length = 0;
    a.publish({ appName: 'reports' });
    a.publish({ appName: undefined });
    await expect.poll(() => atB).toEqual([{ appName: 'reports' }, { appName: undefined }]);
    // This process's job channels, forwarded by publishJobChanges.
    const stop = publishJobChanges(b);
    diagnosticsChannel.channel('adk:job:completed').publish({ job: { appName: 'weather' } });
    stop();
    diagnosticsChannel.channel('adk:job:completed').publish({ job: { appName: 'ignored' } });
    await expect.poll(() => atA).toEqual([{ appName: 'weather' }]);
    b.publish({ appName: 'last' });
    await expect.poll(() => atA).toEqual([{ appName: 'weather' }, { appName: 'last' }]);
    // Neither feed ever heard its own changes.
    expect(atB).toEqual([{ appName: 'reports' }, { appName: undefined }]);
  } finally {
    await a.close();
    await b.close();
  }
}

/**
 * A feed listens only while it has subscribers: the last one gone, another process's changes no
 * longer reach it; a new subscriber makes it listen again (and hears of an unknown change first).
 */
async function listensWhileSubscribed(
  open: () => Promise<JobChangeFeed>,
  /** How many connections listen on the channel, where the engine can tell. */
  listeners?: () => Promise<number>,
): Promise<void> {
  const a = await open();
  const b = await open();
  try {
    if (listeners) expect(await listeners()).toBe(0);
    const first: JobChange[] = [];
    const stop = b.subscribe((change) => first.push(change));
    await expect.poll(() => first).toEqual([{ appName: undefined }]);
    if (listeners) await expect.poll(listeners).toBe(1);
    a.publish({ appName: 'one' });
    await expect.poll(() => first).toEqual([{ appName: undefined }, { appName: 'one' }]);
    stop();
    if (listeners) {
      await expect.poll(listeners).toBe(0);
      // Nobody listens: this change is not delivered to b at all.
      a.publish({ appName: 'unheard' });
    }
    const second: JobChange[] = [];
    b.subscribe((change) => second.push(change));
    await expect.poll(() => second).toEqual([{ appName: undefined }]);
    a.publish({ appName: 'two' });
    await expect.poll(() => second).toEqual([{ appName: undefined }, { appName: 'two' }]);
    expect(first).toEqual([{ appName: undefined }, { appName: 'one' }]);
  } finally {
    await a.close();
    await b.close();
  }
}

describe('job change feeds between processes', () => {
  it.skipIf(noPostgres !== undefined)('PostgresJobChangeFeed (LISTEN/NOTIFY)', async () => {
    const channel = `adk_job_changes_test_${process.pid}`;
    await exchange(() => PostgresJobChangeFeed.open({ connectionString: POSTGRES_URL, channel }));
  });

  it.skipIf(noRedis !== undefined)('RedisJobChangeFeed (pub/sub)', async () => {
    const channel = `adk-test:job-changes:${process.pid}`;
    await exchange(() => RedisJobChangeFeed.open({ url: REDIS_URL, channel }));
  });

  it.skipIf(noPostgres !== undefined)(
    'PostgresJobChangeFeed listens only while it has subscribers',
    async () => {
      const channel = `adk_job_changes_listen_${process.pid}`;
      // PostgreSQL shows no session's LISTENs to another: this checks that listening stops and
      // starts again with the subscribers (UNLISTEN, then LISTEN on the same connection).
      await listensWhileSubscribed(() =>
        PostgresJobChangeFeed.open({ connectionString: POSTGRES_URL, channel }),
      );
    },
  );

  it.skipIf(noRedis !== undefined)(
    'RedisJobChangeFeed subscribes only while it has subscribers',
    async () => {
      const channel = `adk-test:job-changes-listen:${process.pid}`;
      const redis = new Redis(REDIS_URL);
      try {
        await listensWhileSubscribed(
          () => RedisJobChangeFeed.open({ url: REDIS_URL, channel }),
          async () => Number((await redis.pubsub('NUMSUB', channel))[1]),
        );
      } finally {
        redis.disconnect();
      }
    },
  );
});
