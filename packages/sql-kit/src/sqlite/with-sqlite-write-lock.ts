import { sql } from 'kysely';

import type { AnyKysely } from '../dialect';

/**
 * Run `action` on one connection inside `BEGIN IMMEDIATE … COMMIT`: SQLite's write lock is taken
 * first (waiting up to the connection's busy timeout while another process holds it), so every
 * read `action` makes is still true when it writes, even when other processes share the file.
 * Rolled back when `action` (or the commit) throws, and that error is thrown.
 *
 * `action` must use the connection it is given (the caller's Kysely is busy until it returns).
 *
 * @example
 * ```ts
 * const claimed = await withSqliteWriteLock(db, async (locked) => {
 *   const due = await locked.selectFrom('jobs').selectAll().where('state', '=', 'pending').execute();
 *   // ... update the rows just read; no other writer can come in between
 *   return due;
 * });
 * ```
 */
export async function withSqliteWriteLock<T>(
  db: AnyKysely,
  action: (locked: AnyKysely) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await action(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      // Also after a failed commit, so the connection is never handed back inside a transaction.
      // SQLite may have rolled back already (then this rollback fails): the first error is thrown.
      await sql`rollback`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}
