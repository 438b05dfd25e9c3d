import { openSqlDatabase } from '@adk/sql-kit';
import type { Kysely } from 'kysely';

/**
 * A Kysely instance opened from a `sqlite:` or `postgres://` URL, owned by the caller: a SQLite
 * file's folder is created when missing and its journal mode left as it is; PostgreSQL gets a pool
 * of 5.
 */
export async function openKysely(url: string): Promise<Kysely<unknown>> {
  const { db } = await openSqlDatabase<unknown>(url, {
    wal: false,
    createDirectory: true,
    poolSize: 5,
  });
  return db;
}
