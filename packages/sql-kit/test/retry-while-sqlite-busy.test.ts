import { temporaryDirectory } from '@adk/test-databases';
import SQLite from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterAll, beforeEach, expect, it } from 'vitest';

import {
  isSqliteBusy,
  retryWhileSqliteBusy,
  SqliteBusyError,
  withSqliteWriteLock,
  type AnyKysely,
} from '../src';

const temp = temporaryDirectory('adk-sql-kit-busy-');
let db: AnyKysely;
let other: SQLite.Database;

beforeEach(async () => {
  const file = temp.file(`${Math.random().toString(36).slice(2)}.db`);
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 20'); // gives up quickly, so the retry is what waits
  db = new Kysely({ dialect: new SqliteDialect({ database }) });
  await sql`create table kit_rows (id integer primary key)`.execute(db);
  // Another process's connection, holding the write lock while a test says so.
  other = new SQLite(file, { timeout: 0 });
  return async () => {
    if (other.inTransaction) other.exec('rollback');
    other.close();
    await db.destroy();
  };
});
afterAll(() => temp.remove());

const insert = (id: number) =>
  withSqliteWriteLock(db, (locked) => locked.insertInto('kit_rows').values({ id }).execute());
const count = () => (other.prepare('select count(*) as n from kit_rows').get() as { n: number }).n;

it('tries a write again while another connection holds the lock, and commits it once it is free', async () => {
  other.exec('begin immediate');
  await expect(insert(1)).rejects.toSatisfy(isSqliteBusy);
  const released = setTimeout(() => other.exec('commit'), 300);
  try {
    await retryWhileSqliteBusy(() => insert(1), { retryMs: 30_000 });
  } finally {
    clearTimeout(released);
  }
  expect(count()).toBe(1);
});

it('gives up after retryMs with a typed, retryable SqliteBusyError, having written nothing', async () => {
  other.exec('begin immediate');
  let attempts = 0;
  const error = await retryWhileSqliteBusy(
    () => {
      attempts++;
      return insert(2);
    },
    { retryMs: 150 },
  ).catch((caught: unknown) => caught);
  other.exec('commit');
  expect(SqliteBusyError.isInstance(error)).toBe(true);
  const busy = error as SqliteBusyError;
  expect(busy).toMatchObject({ name: 'SqliteBusyError', code: 'SQLITE_BUSY', retryable: true });
  expect(busy.attempts).toBe(attempts);
  expect(attempts).toBeGreaterThan(1);
  expect(busy.waitedMs).toBeGreaterThanOrEqual(150);
  expect(isSqliteBusy(busy.cause)).toBe(true);
  expect(count()).toBe(0);
});

it('throws any other error at once, without trying again', async () => {
  let attempts = 0;
  const failure = new TypeError('not busy');
  await expect(
    retryWhileSqliteBusy(
      async () => {
        attempts++;
        throw failure;
      },
      { retryMs: 10_000 },
    ),
  ).rejects.toBe(failure);
  expect(attempts).toBe(1);
});
