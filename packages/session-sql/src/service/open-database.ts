import { InvalidArgumentError } from '@adk/core';
import { enableSqliteWal, parseSqliteSynchronous, type SqliteSynchronous } from '@adk/sql-kit';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { Pool } from 'pg';

import type { DialectKind } from '../dialect';
import { SqlDriverMissingError } from '../errors';
import type { SessionDatabase } from '../schema';
import type { SqlSessionServiceUrlOptions } from './options';

/** A parsed database URL. */
export type DatabaseUrl =
  | { kind: 'sqlite'; path: string; synchronous?: SqliteSynchronous }
  | { kind: 'postgres'; connectionString: string };

/** `?synchronous=normal` at the end of a SQLite URL: the only parameter a SQLite URL takes. */
function sqliteParameters(url: string, query: string): { synchronous?: SqliteSynchronous } {
  const parameters: { synchronous?: SqliteSynchronous } = {};
  for (const [name, value] of new URLSearchParams(query)) {
    if (name !== 'synchronous') {
      throw new InvalidArgumentError({
        message: `Unknown parameter "${name}" in SQLite URL "${url}": the only one is synchronous=off|normal|full|extra.`,
        argument: 'url',
      });
    }
    parameters.synchronous = parseSqliteSynchronous(value, 'url');
  }
  return parameters;
}

/**
 * Parse `sqlite:./path.db`, `sqlite:/abs.db`, `sqlite:///abs.db`, `sqlite::memory:` (each
 * optionally followed by `?synchronous=off|normal|full|extra`), `postgres://...` and
 * `postgresql://...`. Throws `InvalidArgumentError` for anything else.
 */
export function parseDatabaseUrl(url: string): DatabaseUrl {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { kind: 'postgres', connectionString: url };
  }
  if (url.startsWith('sqlite:')) {
    let path = url.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    const question = path.indexOf('?');
    const parameters = question === -1 ? {} : sqliteParameters(url, path.slice(question + 1));
    if (question !== -1) path = path.slice(0, question);
    if (path === '')
      throw new InvalidArgumentError({
        message: `No file in SQLite URL "${url}".`,
        argument: 'url',
      });
    return { kind: 'sqlite', path, ...parameters };
  }
  throw new InvalidArgumentError({
    message: `Unsupported database URL "${url.replace(/\/\/[^@/]*@/, '//***@')}": use sqlite:./file.db, sqlite::memory: or postgres://...`,
    argument: 'url',
  });
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
 * A `pg` pool for `fromUrl`. An idle connection dropped by the server (restart, failover, a
 * terminated backend) is reported by pg as an `error` event on the pool, which would crash the
 * process without a listener; here it is ignored, and the next query opens a new connection.
 */
export async function createPostgresPool(connectionString: string, max: number): Promise<Pool> {
  const pg = await load('pg', () => import('pg'));
  const pool = new pg.default.Pool({ connectionString, max });
  pool.on('error', () => undefined);
  return pool;
}

/** Open a Kysely instance for `url`, loading only the driver it needs. */
export async function openDatabase(
  url: string,
  options: SqlSessionServiceUrlOptions,
): Promise<{ db: Kysely<SessionDatabase>; dialect: DialectKind }> {
  const parsed = parseDatabaseUrl(url);
  if (parsed.kind === 'sqlite') {
    const { default: Database } = await load('better-sqlite3', () => import('better-sqlite3'));
    const memory = parsed.path === ':memory:';
    const busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
    const database = openSqliteFile(Database, memory ? ':memory:' : parsed.path);
    database.pragma(`busy_timeout = ${busyTimeoutMs}`);
    const synchronous = parsed.synchronous ?? options.synchronous;
    if (!memory) await enableSqliteWal(database, busyTimeoutMs, synchronous ? { synchronous } : {});
    return {
      db: new Kysely<SessionDatabase>({ dialect: new SqliteDialect({ database }) }),
      dialect: 'sqlite',
    };
  }
  const pool = await createPostgresPool(parsed.connectionString, options.poolSize ?? 10);
  return {
    db: new Kysely<SessionDatabase>({ dialect: new PostgresDialect({ pool }) }),
    dialect: 'postgres',
  };
}
