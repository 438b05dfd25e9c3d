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
      'reports a breaking migration it cannot rule out through onError; stop() resolves',
      {
        timeout: 120_000,
      },
      async () => {
        const errors: unknown[] = [];
        const { worker } = await startWorker(errors);
        const exitCode = process.exitCode;
        try {
          // What a newer graphile-worker announces when it upgrades a schema incompatibly; repeated
          // until heard, since the pool's LISTEN connection may still be opening.
          const notifier = pool();
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
          await expect(worker.stop()).resolves.toBeUndefined();
        } finally {
          process.exitCode = exitCode; // graphile-worker sets 57 when it stops on a breaking migration
        }
      },
    );
  },
);
