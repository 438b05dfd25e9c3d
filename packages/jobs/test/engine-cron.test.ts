import { userContent } from '@adk/core';
import {
  POSTGRES_URL,
  dropPostgresSchema,
  postgresSchemaName,
  postgresUnavailable,
  sqliteKysely,
  temporaryDirectory,
  REDIS_URL,
  dropRedisPrefix,
  redisPrefix,
  redisUnavailable,
} from '@adk/test-databases';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { CronScheduler, SqlJobStore } from '../src';
import { BullMqJobStore } from '../src/bullmq';
import { GraphileJobStore } from '../src/graphile';
import { ManualClock } from '../src/testing';

// Under CI=true an unreachable service throws here: its tests fail, never skip.
const skipPostgres = await postgresUnavailable();
const skipRedis = await redisUnavailable();
const schema = postgresSchemaName('jobs_cron');
const prefix = redisPrefix('cron');
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (skipPostgres === undefined) await dropPostgresSchema(schema);
  if (skipRedis === undefined) await dropRedisPrefix(prefix);
});

const schedule = (queue: string) => ({
  name: `every-minute-${queue}`,
  cron: '* * * * *',
  job: { appName: 'reports', userId: 'ops', queue, message: userContent('Minute report') },
});

describe('embedded SQLite: CronScheduler (croner)', () => {
  it('enqueues each occurrence once across 3 schedulers', async () => {
    const temp = temporaryDirectory('adk-jobs-cron-');
    const db = sqliteKysely(temp.file('jobs.db'), { wal: true });
    cleanups.push(async () => {
      await db.destroy();
      temp.remove();
    });
    const clock = new ManualClock(Date.parse('2026-03-02T09:00:30Z'));
    const queue = 'cron-sqlite';
    const schedulers = [0, 1, 2].map(
      () =>
        new CronScheduler({
          store: new SqlJobStore({ db, clock }),
          clock,
          schedules: [schedule(queue)],
        }),
    );
    const tick = async () =>
      (await Promise.all(schedulers.map((scheduler) => scheduler.tick()))).flat();
    expect(await tick()).toHaveLength(1);
    clock.advance(60_000);
    expect(await tick()).toHaveLength(1);
    expect(await tick()).toHaveLength(0);
    const store = new SqlJobStore({ db, clock });
    const runAts = (await store.list({ queue })).map((job) => new Date(job.runAt).toISOString());
    expect(runAts).toEqual(['2026-03-02T09:00:00.000Z', '2026-03-02T09:01:00.000Z']);
  });
});

describe.skipIf(skipPostgres !== undefined)('graphile-worker crontab', () => {
  it('enqueues each occurrence once across 3 schedulers', async () => {
    const stores = [0, 1, 2].map(
      () => new GraphileJobStore({ connectionString: POSTGRES_URL, schema }),
    );
    for (const store of stores) cleanups.push(() => store.close());
    await stores[0]!.migrate();
    // Every enqueue any of the 3 crontabs makes (the unique key would hide a duplicate).
    const spies = stores.map((store) => vi.spyOn(store, 'enqueue'));
    const queue = 'cron-graphile';
    const crons = await Promise.all(
      stores.map((store) => store.schedule({ schedules: [schedule(queue)], catchUpMs: 0 })),
    );
    cleanups.push(async () => void (await Promise.all(crons.map((cron) => cron.stop()))));
    // Another schema of the database announces a breaking migration (graphile-worker does so
    // database-wide, and other tests of this package do it too): the crontabs keep running.
    const exitCode = process.exitCode;
    const notifier = new pg.Pool({ connectionString: POSTGRES_URL });
    try {
      for (let said = 0; said < 5; said++) {
        await notifier.query(
          `select pg_notify('worker:migrate', '{"migrationNumber":100000,"breaking":true}')`,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      await notifier.end();
    }
    // The next minute boundary, plus time for the crontab to enqueue.
    const boundary = Math.ceil(Date.now() / 60_000) * 60_000;
    await new Promise((resolve) => setTimeout(resolve, boundary - Date.now() + 3000));
    const jobs = await stores[0]!.list({ queue });
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    const keys = jobs.map((job) => job.uniqueKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain(`cron:${schedule(queue).name}:${new Date(boundary).toISOString()}`);
    expect(jobs.find((job) => job.runAt === boundary)).toBeDefined();
    const occurrences = spies
      .flatMap((spy) => spy.mock.calls)
      .map(([request]) => request.runAt)
      .filter((runAt) => runAt === boundary);
    expect(occurrences).toHaveLength(1);
    expect(process.exitCode).toBe(exitCode);
    // Not stopped by the announcement: each stops once, now.
    await Promise.all(crons.map((cron) => cron.stop()));
  });
});

describe.skipIf(skipRedis !== undefined)('BullMQ job schedulers', () => {
  it('enqueues each occurrence once across 3 schedulers', async () => {
    const stores = [0, 1, 2].map(() => new BullMqJobStore({ url: REDIS_URL, prefix }));
    for (const store of stores) cleanups.push(() => store.close());
    const queue = 'cron-bullmq';
    await Promise.all(stores.map((store) => store.schedule({ schedules: [schedule(queue)] })));
    const jobs = await stores[1]!.list({ queue });
    const boundary = Math.ceil(Date.now() / 60_000) * 60_000;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ state: 'pending', appName: 'reports', userId: 'ops' });
    expect([boundary, boundary + 60_000]).toContain(jobs[0]!.runAt);
  });
});
