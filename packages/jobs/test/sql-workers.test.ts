import { InMemorySessionService, userContent } from '@adk/core';
import { sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { JobSchemaVersionError, JobWorker, SqlJobStore } from '../src';
import { afterToolCall, askedText, gateTool, reportRunner } from './fixtures/agents';

const temp = temporaryDirectory('adk-jobs-');
afterAll(() => temp.remove());

interface Database {
  label: string;
  skip: boolean;
  /**
   * A fresh database; `open()` gives the Kysely instance a worker process would use on it. On
   * SQLite the workers of one process share one connection: better-sqlite3 is synchronous, so a
   * second in-process connection waiting for the write lock would block the event loop that the
   * lock holder needs.
   */
  fresh(): Promise<() => Kysely<unknown>>;
}

const databases: Database[] = [
  {
    label: 'SQLite file',
    skip: false,
    fresh: async () => {
      const db = sqliteKysely(temp.file(`jobs-${Math.random().toString(36).slice(2)}.db`));
      return () => db;
    },
  },
];

for (const database of databases) {
  describe.skipIf(database.skip)(`${database.label}`, () => {
    it('two workers with their own stores run every job exactly once', async () => {
      const open = await database.fresh();
      const dbs = [open(), open()];
      const stores = dbs.map((db) => new SqlJobStore({ db }));
      await stores[0]!.migrate();
      const gate = gateTool();
      const runs = new Map<string, number>();
      const sessionService = new InMemorySessionService();
      const { runner } = reportRunner(
        (request) => {
          if (afterToolCall(request)) return 'done';
          runs.set(askedText(request), (runs.get(askedText(request)) ?? 0) + 1);
          return { functionCalls: [{ name: 'wait', args: {} }] };
        },
        { tools: [gate.tool], sessionService },
      );
      const workers = stores.map(
        (store, index) =>
          new JobWorker({
            store,
            runners: [runner],
            workerId: `w${index}`,
            queues: { default: 3 },
          }),
      );
      const total = 20;
      for (let i = 0; i < total; i++)
        await stores[i % 2]!.enqueue({
          appName: 'reports',
          userId: 'u1',
          message: userContent(`job ${i}`),
        });
      const drained = Promise.all(workers.map((worker) => worker.drain()));
      // Both workers hold three jobs each at the same moment before any finishes.
      await gate.whenActive(6);
      expect(workers.map((worker) => worker.running)).toEqual([3, 3]);
      gate.release();
      await drained;
      const completed = await stores[0]!.list({ state: 'completed' });
      expect(completed).toHaveLength(total);
      expect(completed.every((job) => job.attempt === 1)).toBe(true);
      expect(runs.size).toBe(total);
      expect([...runs.values()].every((count) => count === 1)).toBe(true);
      expect(gate.maxActive()).toBe(6);
      for (const db of new Set(dbs)) await db.destroy();
    });

    it('checks the schema version: missing tables and newer versions are refused', async () => {
      const open = await database.fresh();
      const db = open();
      const unmigrated = new SqlJobStore({ db, autoMigrate: false });
      await expect(unmigrated.list()).rejects.toSatisfy(
        (error) => JobSchemaVersionError.isInstance(error) && error.found === undefined,
      );
      const store = new SqlJobStore({ db });
      await store.migrate();
      await store.migrate();
      expect(await new SqlJobStore({ db, autoMigrate: false }).list()).toEqual([]);
      await sql`update adk_jobs_metadata set value = '2' where key = 'schema_version'`.execute(db);
      for (const next of [new SqlJobStore({ db, autoMigrate: false }), new SqlJobStore({ db })]) {
        await expect(next.list()).rejects.toSatisfy(
          (error) => JobSchemaVersionError.isInstance(error) && error.found === '2',
        );
      }
      await db.destroy();
    });
  });
}
