import { InvalidArgumentError } from '@adk/core';
import { POSTGRES_URL, postgresUnavailable, temporaryDirectory } from '@adk/test-databases';
import { sql } from 'kysely';
import { afterAll, describe, expect, it, vi } from 'vitest';

import {
  SqlDriverMissingError,
  maskDatabaseUrl,
  openSqlDatabase,
  parseDatabaseUrl,
  type AnyKysely,
} from '../src';
import { createPostgresPool } from '../src/connect/open-sql-database';

const postgresAvailable = (await postgresUnavailable()) === undefined;
const temp = temporaryDirectory('adk-sql-kit-connect-');
const opened: AnyKysely[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  temp.remove();
});

async function open(url: string, options?: Parameters<typeof openSqlDatabase>[1]) {
  const result = await openSqlDatabase(url, options);
  opened.push(result.db);
  return result;
}

const pragma = async (db: AnyKysely, name: string) =>
  Object.values((await sql.raw(`pragma ${name}`).execute(db)).rows[0] as object)[0];

describe('parseDatabaseUrl', () => {
  it('reads the SQLite and PostgreSQL forms', () => {
    expect(parseDatabaseUrl('sqlite:./data/sessions.db')).toEqual({
      kind: 'sqlite',
      path: './data/sessions.db',
    });
    expect(parseDatabaseUrl('sqlite:/var/lib/adk.db')).toEqual({
      kind: 'sqlite',
      path: '/var/lib/adk.db',
    });
    expect(parseDatabaseUrl('sqlite:///var/lib/adk.db')).toEqual({
      kind: 'sqlite',
      path: '/var/lib/adk.db',
    });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ kind: 'sqlite', path: ':memory:' });
    expect(parseDatabaseUrl('postgres://u@h:5432/db')).toEqual({
      kind: 'postgres',
      connectionString: 'postgres://u@h:5432/db',
    });
    expect(parseDatabaseUrl('postgresql://u@h/db')).toMatchObject({ kind: 'postgres' });
  });

  it('reads ?synchronous= on a SQLite URL and refuses unknown parameters or modes', () => {
    expect(parseDatabaseUrl('sqlite:./x.db?synchronous=normal')).toEqual({
      kind: 'sqlite',
      path: './x.db',
      synchronous: 'normal',
    });
    expect(parseDatabaseUrl('sqlite:///var/x.db?synchronous=FULL')).toEqual({
      kind: 'sqlite',
      path: '/var/x.db',
      synchronous: 'full',
    });
    for (const url of ['sqlite:./x.db?synchronous=sometimes', 'sqlite:./x.db?cache=shared']) {
      expect(() => parseDatabaseUrl(url)).toThrow(InvalidArgumentError);
    }
  });

  it('refuses other URLs with InvalidArgumentError, without echoing a password', () => {
    for (const url of ['mysql://root:hunter2@h/db', 'sqlite:', 'file.db', '']) {
      let error: unknown;
      try {
        parseDatabaseUrl(url);
      } catch (thrown) {
        error = thrown;
      }
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ argument: 'url' });
      expect((error as Error).message).not.toContain('hunter2');
    }
  });
});

describe('maskDatabaseUrl', () => {
  it('hides the password and keeps the rest', () => {
    expect(maskDatabaseUrl('postgres://app:s3cr%40t@db:5432/adk')).toBe(
      'postgres://app:***@db:5432/adk',
    );
    expect(maskDatabaseUrl('postgres://app@db/adk')).toBe('postgres://app@db/adk');
    expect(maskDatabaseUrl('sqlite:./a.db')).toBe('sqlite:./a.db');
  });
});

describe('openSqlDatabase on SQLite', () => {
  it('opens a file in WAL mode with synchronous = FULL and a 5 s busy timeout', async () => {
    const { db, dialect } = await open(`sqlite:${temp.file('wal.db')}`);
    expect(dialect).toBe('sqlite');
    expect(await pragma(db, 'journal_mode')).toBe('wal');
    expect(await pragma(db, 'synchronous')).toBe(2);
    expect(await pragma(db, 'busy_timeout')).toBe(5000);
  });

  it('takes the synchronous mode from the URL before the option, and the busy timeout option', async () => {
    const file = temp.file('modes.db');
    const fromUrl = await open(`sqlite:${file}?synchronous=normal`, { synchronous: 'extra' });
    const fromOption = await open(`sqlite:${file}`, { synchronous: 'extra', busyTimeoutMs: 250 });
    expect(await pragma(fromUrl.db, 'synchronous')).toBe(1);
    expect(await pragma(fromOption.db, 'synchronous')).toBe(3);
    expect(await pragma(fromOption.db, 'busy_timeout')).toBe(250);
  });

  it('leaves the journal alone with wal: false, and creates the folder when asked', async () => {
    const file = temp.file('nested/deeper/plain.db');
    await expect(open(`sqlite:${file}`)).rejects.toThrow(/directory does not exist/);
    const { db } = await open(`sqlite:${file}`, { wal: false, createDirectory: true });
    await sql`create table kit_t (id integer)`.execute(db);
    expect(await pragma(db, 'journal_mode')).toBe('delete');
  });

  it('opens an in-memory database', async () => {
    const { db } = await open('sqlite::memory:');
    await sql`create table kit_t (id integer)`.execute(db);
    await db.insertInto('kit_t').values({ id: 1 }).execute();
    expect(await db.selectFrom('kit_t').selectAll().execute()).toEqual([{ id: 1 }]);
    expect(await pragma(db, 'journal_mode')).toBe('memory');
  });

  it('refuses an unsupported URL with InvalidArgumentError', async () => {
    await expect(open('mysql://h/db')).rejects.toThrow(InvalidArgumentError);
  });

  it('reports a better-sqlite3 whose native addon was never built as SqlDriverMissingError', async () => {
    vi.doMock('better-sqlite3', () => ({
      default: class {
        constructor() {
          throw new Error(
            'Could not locate the bindings file. Tried:\n → build/better_sqlite3.node',
          );
        }
      },
    }));
    try {
      vi.resetModules();
      const fresh = await import('../src');
      const error = await fresh
        .openSqlDatabase('sqlite::memory:')
        .catch((caught: unknown) => caught);
      expect(SqlDriverMissingError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ packageName: 'better-sqlite3', reason: 'not-built' });
      expect((error as Error).message).toContain('npm install-scripts approve better-sqlite3');
    } finally {
      vi.doUnmock('better-sqlite3');
      vi.resetModules();
    }
  });
});

describe.skipIf(!postgresAvailable)('openSqlDatabase on PostgreSQL', () => {
  it('opens a pool of the asked size', async () => {
    const { db, dialect } = await open(POSTGRES_URL, { poolSize: 3 });
    expect(dialect).toBe('postgres');
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('does not crash the process when the server drops an idle connection', async () => {
    const pool = await createPostgresPool(POSTGRES_URL, 2);
    try {
      // What pg does when an idle client's connection is terminated by the server.
      expect(() =>
        pool.emit('error', new TypeError('terminating connection due to administrator command')),
      ).not.toThrow();
    } finally {
      await pool.end();
    }
  });
});
