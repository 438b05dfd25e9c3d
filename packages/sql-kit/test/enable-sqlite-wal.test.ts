import { temporaryDirectory } from '@adk/test-databases';
import SQLite from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';

import { enableSqliteWal } from '../src';

const temp = temporaryDirectory('adk-sql-kit-wal-');
const opened: SQLite.Database[] = [];
afterAll(() => {
  for (const database of opened) database.close();
  temp.remove();
});

/** A connection that never waits for a lock (a waiting better-sqlite3 blocks the event loop). */
function connect(file: string): SQLite.Database {
  const database = new SQLite(file, { timeout: 0 });
  opened.push(database);
  return database;
}

const journalMode = (database: SQLite.Database) =>
  database.pragma('journal_mode', { simple: true }) as string;

it('switches a new file to WAL, which persists for other connections', async () => {
  const file = temp.file('new.db');
  await enableSqliteWal(connect(file), 1000);
  expect(journalMode(connect(file))).toBe('wal');
});

it('keeps an in-memory database’s journal, where WAL is impossible', async () => {
  const database = connect(':memory:');
  await enableSqliteWal(database, 1000);
  expect(journalMode(database)).toBe('memory');
});

it('retries while another connection holds the file, and switches once it is free', async () => {
  const file = temp.file('held.db');
  const holder = connect(file);
  holder.exec('create table t (id integer)');
  holder.exec('begin immediate');
  holder.exec('insert into t values (1)');
  let done = false;
  const switching = enableSqliteWal(connect(file), 60_000).then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  expect(done).toBe(false);
  holder.exec('commit');
  await switching;
  expect(journalMode(connect(file))).toBe('wal');
});

it('gives up with SQLITE_BUSY once the timeout has passed', async () => {
  const file = temp.file('busy.db');
  const holder = connect(file);
  holder.exec('create table t (id integer)');
  holder.exec('begin immediate');
  holder.exec('insert into t values (1)');
  await expect(enableSqliteWal(connect(file), 0)).rejects.toMatchObject({
    code: expect.stringMatching(/^SQLITE_BUSY/),
  });
  holder.exec('commit');
});

it('throws any other error at once, without retrying', async () => {
  let calls = 0;
  const failure = Object.assign(new TypeError('disk I/O error'), { code: 'SQLITE_IOERR' });
  const database = {
    pragma() {
      calls++;
      throw failure;
    },
  };
  await expect(enableSqliteWal(database, 60_000)).rejects.toBe(failure);
  expect(calls).toBe(1);
});

const synchronous = (database: SQLite.Database) =>
  database.pragma('synchronous', { simple: true }) as number;

it('sets synchronous = FULL by default, where better-sqlite3 leaves NORMAL in WAL mode', async () => {
  const file = temp.file('durable.db');
  connect(file).pragma('journal_mode = WAL');
  // better-sqlite3 is built with DEFAULT_WAL_SYNCHRONOUS=1: a connection to a file already in WAL
  // mode runs with NORMAL (what every store opened after the first one used to run with).
  expect(synchronous(connect(file))).toBe(1);
  const database = connect(file);
  await enableSqliteWal(database, 1000);
  expect(synchronous(database)).toBe(2); // FULL
});

it('sets the synchronous mode asked for, and refuses an unknown one before touching the file', async () => {
  const file = temp.file('normal.db');
  const database = connect(file);
  await enableSqliteWal(database, 1000, { synchronous: 'normal' });
  expect(synchronous(database)).toBe(1);
  const other = temp.file('refused.db');
  const refused = connect(other);
  await expect(
    enableSqliteWal(refused, 1000, { synchronous: 'sometimes' as 'full' }),
  ).rejects.toMatchObject({ name: 'InvalidArgumentError', argument: 'synchronous' });
  expect(journalMode(refused)).toBe('delete');
});
