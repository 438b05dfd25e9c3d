import diagnosticsChannel from 'node:diagnostics_channel';

import {
  POSTGRES_URL,
  REDIS_URL,
  postgresUnavailable,
  redisUnavailable,
} from '@adk/test-databases';
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

describe('job change feeds between processes', () => {
  it.skipIf(noPostgres !== undefined)('PostgresJobChangeFeed (LISTEN/NOTIFY)', async () => {
    const channel = `adk_job_changes_test_${process.pid}`;
    await exchange(() => PostgresJobChangeFeed.open({ connectionString: POSTGRES_URL, channel }));
  });

  it.skipIf(noRedis !== undefined)('RedisJobChangeFeed (pub/sub)', async () => {
    const channel = `adk-test:job-changes:${process.pid}`;
    await exchange(() => RedisJobChangeFeed.open({ url: REDIS_URL, channel }));
  });
});
