import { createRequire } from 'node:module';

import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely';

/** The services the jobs benchmark uses. */
export const POSTGRES_URL =
  process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.ADK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A Kysely on a SQLite file in WAL mode with a busy timeout (several processes share it). */
export function sqliteJobsKysely(path: string): Kysely<unknown> {
  const SQLite = createRequire(import.meta.url)('better-sqlite3') as new (
    path: string,
  ) => SqliteDatabase & { pragma(text: string): unknown };
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  return new Kysely({ dialect: new SqliteDialect({ database }) });
}
