import { sql } from 'kysely';

import type { AnyKysely } from './dialect';

/**
 * Run `action` on one connection inside `BEGIN IMMEDIATE … COMMIT`: SQLite's write lock is taken
 * before the first read, so what `action` reads is still true when it writes, even when other
 * processes share the file. Rolled back when `action` throws. `action` must use the connection it
 * is given.
 */
export async function withSqliteWriteLock<T>(
  db: AnyKysely,
  action: (locked: AnyKysely) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    let result: T;
    try {
      result = await action(connection);
    } catch (error) {
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
    await sql`commit`.execute(connection);
    return result;
  });
}
