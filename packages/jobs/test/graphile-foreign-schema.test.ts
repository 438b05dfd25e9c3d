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

import { JobEngineStoppedError, JobWorker, type Job } from '../src';
import { GraphileJobStore } from '../src/graphile';
import { reportRunner } from './fixtures/agents';
import { until } from './fixtures/until';

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

const ended = (state: string | undefined) => state !== 'pending' && state !== 'running';

/**
 * A worker on `schema` that has completed one job already (so it runs and listens), with the
 * errors it reports and the process exit code before what the test does next.
 */
async function workingWorker(text: string) {
  const errors: unknown[] = [];
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
  await runJob(store, text, (job) => job?.state === 'completed');
  return { store, worker, errors, exitCode: process.exitCode };
}

/** Enqueue a job for `reports` and wait until `done` (by default: until it ended). */
async function runJob(
  store: GraphileJobStore,
  text: string,
  done: (job: Job | undefined) => boolean = (job) => ended(job?.state),
) {
  const { job } = await store.enqueue({
    appName: 'reports',
    userId: 'u1',
    message: userContent(text),
  });
  return until(() => store.get(job.id), done, 60_000);
}

/** What graphile-worker announces database-wide when it upgrades a schema incompatibly. */
const BREAKING_NOTICE = `select pg_notify('worker:migrate', '{"migrationNumber":100000,"breaking":true}')`;

function pool(): pg.Pool {
  const made = new pg.Pool({ connectionString: POSTGRES_URL });
  cleanups.push(() => made.end());
  return made;
}

describe.skipIf(skip !== undefined)(
  'GraphileJobStore beside another graphile-worker schema',
  () => {
    it(
      'keeps taking jobs when another schema is installed in the same database while it runs',
      {
        timeout: 120_000,
      },
      async () => {
        const { store, worker, errors, exitCode } = await workingWorker('a');

        // Another application installs graphile-worker in its own schema: its breaking migrations are
        // announced on the database-wide `worker:migrate` channel.
        await runMigrations({ pgPool: pool(), schema: foreign });

        const done = await runJob(store, 'b');
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
        const { store, worker, errors, exitCode } = await workingWorker('c');
        try {
          // A newer graphile-worker upgrades the other application's schema incompatibly: the
          // announcement names a migration this schema never had. Said a few times, so that the
          // pool's LISTEN connection hears it.
          const notifier = pool();
          for (let said = 0; said < 10; said++) {
            await notifier.query(BREAKING_NOTICE);
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
          const done = await runJob(store, 'd', (job) => ended(job?.state) || errors.length > 0);
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
        const { worker, errors, exitCode } = await workingWorker('e');
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
              if (errors.length === 0) await notifier.query(BREAKING_NOTICE);
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
