/**
 * Tasks in SQL: a server restarted on the same database (a new process would open it the same
 * way) still knows every task, its history and its ADK session, on SQLite and PostgreSQL.
 */
import { SqlSessionService } from '@adk/session-sql';
import {
  createPostgresSchema,
  dropPostgresSchema,
  postgresKysely,
  postgresSchemaName,
  postgresUnavailable,
  sqliteKysely,
  temporaryDirectory,
} from '@adk/test-databases';
import { createRequire } from 'node:module';

import type BetterSqlite3 from 'better-sqlite3';
import type * as KyselyModule from 'kysely';

import {
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  SqliteAdapter,
} from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import {
  A2aClient,
  createA2aServer,
  listenA2a,
  TaskState,
  UnsupportedA2aDialectError,
  type Task,
} from '../src';
import { createA2aSqlStores } from '../src/sql';
import { echoAgent, partsText, userMessage } from './helpers';

const skipPostgres = await postgresUnavailable();
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** One server "process": its own connections to the database, its own runner. */
async function startOn(db: Kysely<unknown>) {
  const sessionService = new SqlSessionService({ db, autoMigrate: true });
  const { taskStore } = await createA2aSqlStores({ db });
  const app = createA2aServer({ agent: echoAgent().agent, sessionService, taskStore });
  const server = await listenA2a(app, { port: 0 });
  return { server, client: await A2aClient.fromUrl(server.url) };
}

async function survivesRestart(open: () => Kysely<unknown>, options: { keepOpen?: boolean } = {}) {
  const firstDb = open();
  const first = await startOn(firstDb);
  const task = (await first.client.sendMessage({ message: userMessage('remember me') })) as Task;
  expect(partsText(task.artifacts[0]?.parts)).toBe('echo #1: remember me');
  await first.server.close();
  if (!options.keepOpen) await firstDb.destroy();

  const secondDb = open();
  if (!options.keepOpen) cleanups.push(() => secondDb.destroy());
  const second = await startOn(secondDb);
  cleanups.push(() => second.server.close());
  const read = await second.client.getTask(task.id);
  expect(read.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(read.contextId).toBe(task.contextId);
  expect(partsText(read.history[0]?.parts)).toBe('remember me');
  expect(partsText(read.artifacts[0]?.parts)).toBe('echo #1: remember me');
  const listed = await second.client.listTasks();
  expect(listed.tasks.map((entry) => entry.id)).toEqual([task.id]);
  // The context is still the same ADK session: the agent sees the first turn.
  const next = (await second.client.sendMessage({
    message: userMessage('and now?', { contextId: task.contextId }),
  })) as Task;
  expect(partsText(next.artifacts[0]?.parts)).toBe('echo #2: and now?');
  expect((await second.client.listTasks({ contextId: task.contextId })).totalSize).toBe(2);
}

describe('A2A tasks in SQL survive a restart', () => {
  it('on a SQLite file', async () => {
    const directory = temporaryDirectory('adk-a2a-');
    cleanups.push(() => directory.remove());
    await survivesRestart(() => sqliteKysely(directory.file('a2a.db')));
  });

  it.skipIf(skipPostgres !== undefined)('on PostgreSQL', async () => {
    const schema = postgresSchemaName('a2a');
    await createPostgresSchema(schema);
    cleanups.push(() => dropPostgresSchema(schema));
    await survivesRestart(() => postgresKysely(schema));
  });
});

describe('createA2aSqlStores and the Kysely it is given', () => {
  it('accepts a Kysely loaded through require (another copy of kysely), as the session store does', async () => {
    const require = createRequire(import.meta.url);
    const cjs = require('kysely') as typeof KyselyModule;
    const Database = require('better-sqlite3') as typeof BetterSqlite3;
    const directory = temporaryDirectory('adk-a2a-cjs-');
    cleanups.push(() => directory.remove());
    const db = new cjs.Kysely<unknown>({
      dialect: new cjs.SqliteDialect({ database: new Database(directory.file('a2a.db')) }),
    });
    cleanups.push(() => db.destroy());
    // The copies differ: this is the case an instanceof check cannot recognise.
    expect(db.getExecutor().adapter).not.toBeInstanceOf(SqliteAdapter);
    await survivesRestart(() => db as Kysely<unknown>, { keepOpen: true });
  });

  it('refuses a database it cannot drive with a typed error that names the adapter', async () => {
    const db = new Kysely<unknown>({
      dialect: {
        createAdapter: () => new MysqlAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (kysely) => new MysqlIntrospector(kysely),
        createQueryCompiler: () => new MysqlQueryCompiler(),
      },
    });
    const error = await createA2aSqlStores({ db }).catch((e: unknown) => e);
    expect(UnsupportedA2aDialectError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('MysqlAdapter');
    expect((error as Error).message).toMatch(/dialect: 'sqlite'/);
  });
});
