import { userContent } from '@adk/core';
import {
  POSTGRES_URL,
  dropPostgresSchema,
  postgresSchemaName,
  postgresUnavailable,
} from '@adk/test-databases';
import { runMigrations } from 'graphile-worker';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

import { JobEngineStoppedError, JobWorker } from '../src';
import { GraphileJobStore } from '../src/graphile';
import { reportRunner } from './fixtures/agents';

// Under CI=true an unreachable PostgreSQL throws here: its tests fail, never skip.
const skip = await postgresUnavailable();
const schema = postgresSchemaName('jobs_own');
const foreign = postgresSchemaName('jobs_foreign');
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (skip === undefined) {
    await dropPostgresSchema(schema);
    await dropPostgresSchema(foreign);
  }
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startWorker(errors: unknown[]) {
  const store = new GraphileJobStore({ connectionString: POSTGRES_URL, schema });
  cleanups.push(() => store.close());
  const { runner } = reportRunner(() => 'done');
  const worker = new JobWorker({
    store,
    runners: [runner],
    queues: { default: 1 },
    onError: (error) => errors.push(error),
  });
  await worker.start();
  cleanups.push(() => worker.stop().catch(() => undefined));
  return { store, worker };
}

function pool(): pg.Pool {
  const made = new pg.Pool({ connectionString: POSTGRES_URL });
  cleanups.push(() => made.end());
  return made;
}

const ended = (state: string | undefined) => state !== 'pending' && state !== 'running';

describe.skipIf(skip !== undefined)(
  'GraphileJobStore beside another graphile-worker schema',
  () => {
    it(
      'keeps taking jobs when another schema is installed in the same database while it runs',
      {
        timeout: 120_000,
      },
      async () => {
        const errors: unknown[] = [];
        const { store, worker } = await startWorker(errors);
        const first = await store.enqueue({
          appName: 'reports',
          userId: 'u1',
          message: userContent('a'),
        });
        await until(
          () => store.get(first.job.id),
          (job) => job?.state === 'completed',
          60_000,
        );
        const exitCode = process.exitCode;

        // Another application installs graphile-worker in its own schema: its breaking migrations are
        // announced on the database-wide `worker:migrate` channel.
        await runMigrations({ pgPool: pool(), schema: foreign });

        const second = await store.enqueue({
          appName: 'reports',
          userId: 'u1',
          message: userContent('b'),
        });
        const done = await until(
          () => store.get(second.job.id),
          (job) => ended(job?.state),
          60_000,
        );
        expect(done?.state).toBe('completed');
        expect(errors).toEqual([]);
        expect(process.exitCode).toBe(exitCode);
        await worker.stop();
      },
    );

    it(
      'keeps taking jobs when another schema announces a breaking migration newer than its own',
      {
        timeout: 120_000,
      },
      async () => {
        const errors: unknown[] = [];
        const { store, worker } = await startWorker(errors);
        const first = await store.enqueue({
          appName: 'reports',
          userId: 'u1',
          message: userContent('c'),
        });
        await until(
          () => store.get(first.job.id),
          (job) => job?.state === 'completed',
          60_000,
        );
        const exitCode = process.exitCode;
        try {
          // A newer graphile-worker upgrades the other application's schema incompatibly: the
          // announcement names a migration this schema never had. Said a few times, so that the
          // pool's LISTEN connection hears it.
          const notifier = pool();
          for (let said = 0; said < 10; said++) {
            await notifier.query(
              `select pg_notify('worker:migrate', '{"migrationNumber":100000,"breaking":true}')`,
            );
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
          const second = await store.enqueue({
            appName: 'reports',
            userId: 'u1',
            message: userContent('d'),
          });
          const done = await until(
            () => store.get(second.job.id),
            (job) => ended(job?.state) || errors.length > 0,
            60_000,
          );
          expect(errors).toEqual([]);
          expect(done?.state).toBe('completed');
          expect(process.exitCode).toBe(exitCode);
          await expect(worker.stop()).resolves.toBeUndefined();
        } finally {
          process.exitCode = exitCode;
        }
      },
    );

    it(
      'stops and reports through onError when its own schema gets a breaking migration; stop() resolves',
      {
        timeout: 120_000,
      },
      async () => {
        const errors: unknown[] = [];
        const { store, worker } = await startWorker(errors);
        const first = await store.enqueue({
          appName: 'reports',
          userId: 'u1',
          message: userContent('e'),
        });
        await until(
          () => store.get(first.job.id),
          (job) => job?.state === 'completed',
          60_000,
        );
        const exitCode = process.exitCode;
        const notifier = pool();
        try {
          // What a newer graphile-worker does when it upgrades this very schema incompatibly: the
          // migration is recorded in the schema, then announced (repeated until heard, since the
          // pool's LISTEN connection may still be opening).
          await notifier.query(
            `insert into "${schema}".migrations (id, breaking) values (100000, true)`,
          );
          const [error] = await until(
            async () => {
              if (errors.length === 0)
                await notifier.query(
                  `select pg_notify('worker:migrate', '{"migrationNumber":100000,"breaking":true}')`,
                );
              return errors;
            },
            (seen) => seen.length > 0,
            60_000,
          );
          expect(JobEngineStoppedError.isInstance(error)).toBe(true);
          expect((error as JobEngineStoppedError).queue).toBe('default');
          expect((error as JobEngineStoppedError).message).toContain('100000');
          await expect(worker.stop()).resolves.toBeUndefined();
          expect(errors).toHaveLength(1);
        } finally {
          await notifier.query(`delete from "${schema}".migrations where id = 100000`);
          process.exitCode = exitCode;
        }
      },
    );
  },
);
