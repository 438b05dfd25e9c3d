import { sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeEach, expect, it } from 'vitest';

import { withSqliteWriteLock, type AnyKysely } from '../src';

const temp = temporaryDirectory('adk-sql-kit-lock-');
let db: AnyKysely;
let other: SQLite.Database;
let file: string;

beforeEach(async () => {
  file = temp.file(`${Math.random().toString(36).slice(2)}.db`);
  db = sqliteKysely(file);
  await sql`create table kit_rows (id integer primary key)`.execute(db);
  // Another writer of the same file that never waits (better-sqlite3 would block the event loop).
  other = new SQLite(file, { timeout: 0 });
  return async () => {
    other.close();
    await db.destroy();
  };
});
afterAll(() => temp.remove());

const count = () => (other.prepare('select count(*) as n from kit_rows').get() as { n: number }).n;

it('commits what the action wrote and returns its result', async () => {
  const result = await withSqliteWriteLock(db, async (locked) => {
    await locked.insertInto('kit_rows').values({ id: 1 }).execute();
    return 'done';
  });
  expect(result).toBe('done');
  expect(count()).toBe(1);
});

it('holds the write lock from the start of the action: another writer is refused meanwhile', async () => {
  let refusal: unknown;
  await withSqliteWriteLock(db, async (locked) => {
    await locked.selectFrom('kit_rows').selectAll().execute();
    try {
      other.prepare('insert into kit_rows (id) values (2)').run();
    } catch (error) {
      refusal = error;
    }
  });
  expect((refusal as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
  other.prepare('insert into kit_rows (id) values (2)').run();
  expect(count()).toBe(1);
});

it('rolls back and rethrows when the action throws, and the connection stays usable', async () => {
  const failure = new TypeError('no');
  await expect(
    withSqliteWriteLock(db, async (locked) => {
      await locked.insertInto('kit_rows').values({ id: 3 }).execute();
      throw failure;
    }),
  ).rejects.toBe(failure);
  expect(count()).toBe(0);
  await db.insertInto('kit_rows').values({ id: 4 }).execute();
  expect(count()).toBe(1);
});

it('rolls back when the commit fails, so the next transaction on the connection can begin', async () => {
  // A deferred foreign key is checked at commit: the commit fails and leaves the transaction open.
  await sql`pragma foreign_keys = on`.execute(db);
  await sql`create table kit_children (id integer primary key,
    parent integer references kit_rows (id) deferrable initially deferred)`.execute(db);
  const commit = withSqliteWriteLock(db, async (locked) => {
    await locked.insertInto('kit_rows').values({ id: 5 }).execute();
    await locked.insertInto('kit_children').values({ id: 1, parent: 99 }).execute();
  });
  await expect(commit).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
  expect(count()).toBe(0);
  await withSqliteWriteLock(db, (locked) =>
    locked.insertInto('kit_rows').values({ id: 6 }).execute(),
  );
  expect(count()).toBe(1);
});
