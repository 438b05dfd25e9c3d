import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Pool } from 'pg';

import type { SqlDialect } from '../dialect';
import { enableSqliteWal, type SqliteSynchronous } from '../sqlite';
import { parseDatabaseUrl } from './database-url';
import { assertDriverSupportsNode } from './driver-engines';
import { SqlDriverMissingError } from './sql-driver-missing-error';

/** Options of {@link openSqlDatabase}. */
export interface OpenSqlDatabaseOptions {
  /** SQLite: how long a writer waits for the database lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /**
   * SQLite file: switch it to the WAL journal with {@link enableSqliteWal} (default `true`). With
   * `false` the file keeps the journal mode it has.
   */
  wal?: boolean;
  /**
   * SQLite file in WAL mode: the connection's `synchronous` mode (default `full`). A
   * `?synchronous=` parameter in the URL takes precedence.
   */
  synchronous?: SqliteSynchronous;
  /** SQLite file: create its folder when missing (default `false`). */
  createDirectory?: boolean;
  /** PostgreSQL: maximum pool size (default 10). */
  poolSize?: number;
}

/** What {@link openSqlDatabase} opened; the caller owns `db` and destroys it when done. */
export interface OpenedSqlDatabase<DB> {
  db: Kysely<DB>;
  dialect: SqlDialect;
}

async function load<T>(packageName: string, importer: () => Promise<T>): Promise<T> {
  try {
    return await importer();
  } catch (cause) {
    throw new SqlDriverMissingError({ packageName, cause });
  }
}

/**
 * `new Database(path)`, reporting a better-sqlite3 whose native addon is missing (its build script
 * never ran) or was built for another Node.js as a {@link SqlDriverMissingError}.
 */
function openSqliteFile<T>(Database: new (path: string) => T, path: string): T {
  try {
    return new Database(path);
  } catch (cause) {
    const code = (cause as { code?: unknown } | null)?.code;
    const message = cause instanceof Error ? cause.message : '';
    if (code === 'ERR_DLOPEN_FAILED' || message.includes('Could not locate the bindings file')) {
      throw new SqlDriverMissingError({
        packageName: 'better-sqlite3',
        reason: 'not-built',
        cause,
      });
    }
    throw cause;
  }
}

/**
 * A `pg` pool. An idle connection dropped by the server (restart, failover, a terminated backend)
 * is reported by pg as an `error` event on the pool, which would crash the process without a
 * listener; here it is ignored, and the next query opens a new connection.
 */
export async function createPostgresPool(connectionString: string, max: number): Promise<Pool> {
  const pg = await load('pg', () => import('pg'));
  const pool = new pg.default.Pool({ connectionString, max });
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Open a Kysely instance for a database URL (see {@link parseDatabaseUrl}), loading only the
 * driver it needs: better-sqlite3 for `sqlite:` (with a busy timeout and, for a file, the WAL
 * journal and `synchronous = full`), a `pg` pool for `postgres://`. A driver that is not
 * installed, a better-sqlite3 whose native addon was never built (or built for another Node.js),
 * or one made for a newer Node.js (checked before its addon loads, which would crash) is a
 * {@link SqlDriverMissingError}; a URL of another kind an `InvalidArgumentError`.
 *
 * @example
 * ```ts
 * const { db, dialect } = await openSqlDatabase('sqlite:./data/adk.db');
 * // ... give db to a store; when done:
 * await db.destroy();
 * ```
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the caller's database type
export async function openSqlDatabase<DB = any>(
  url: string,
  options: OpenSqlDatabaseOptions = {},
): Promise<OpenedSqlDatabase<DB>> {
  const parsed = parseDatabaseUrl(url);
  if (parsed.kind === 'sqlite') {
    const { default: Database } = await load('better-sqlite3', () => import('better-sqlite3'));
    assertDriverSupportsNode('better-sqlite3');
    const memory = parsed.path === ':memory:';
    const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
    if (!memory && options.createDirectory) mkdirSync(dirname(parsed.path), { recursive: true });
    const database = openSqliteFile(Database, parsed.path);
    database.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const synchronous = parsed.synchronous ?? options.synchronous;
    if (!memory && (options.wal ?? true)) {
      await enableSqliteWal(database, busyTimeoutMs, synchronous ? { synchronous } : {});
    }
    return { db: new Kysely<DB>({ dialect: new SqliteDialect({ database }) }), dialect: 'sqlite' };
  }
  const pool = await createPostgresPool(parsed.connectionString, options.poolSize ?? 10);
  return { db: new Kysely<DB>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
}
