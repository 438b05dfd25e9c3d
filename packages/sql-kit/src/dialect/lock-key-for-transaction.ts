import { createHash } from 'node:crypto';

import { sql, type Transaction } from 'kysely';

import type { SqlDialect } from './sql-dialect';

/**
 * The PostgreSQL advisory lock id of `key`: the first 8 bytes of its SHA-256, as a signed 64-bit
 * decimal (`bigint`). Distinct keys share an id with a probability of about n²/2⁶⁵; two that do
 * only wait for each other.
 */
export function advisoryLockId(key: string): string {
  return createHash('sha256').update(key).digest().readBigInt64BE(0).toString();
}

/**
 * Make `trx` wait, from here to its end, for every other transaction that called this with the
 * same `key`: for writers that read what they then replace (a delete and insert of one session's
 * rows, the next version number of one file), which PostgreSQL's default isolation lets two
 * transactions do at once, so that one of them fails on a unique key however often it is retried.
 *
 * On PostgreSQL: a transaction-scoped advisory lock (`pg_advisory_xact_lock`) on
 * {@link advisoryLockId}(`key`), released at commit or rollback. Statements after the lock
 * see what the previous holder committed (each statement of a read-committed transaction takes a
 * new snapshot). On SQLite nothing is sent: a write transaction already excludes every other
 * writer of the database.
 *
 * Callers keep their retry on a unique violation ({@link retryOnUniqueViolation}) for writers that
 * do not take the lock, such as an older version of the store during a rolling deploy.
 *
 * @example
 * ```ts
 * await db.transaction().execute(async (trx) => {
 *   await lockKeyForTransaction(trx, 'postgres', `my_table\u0000${appName}\u0000${sessionId}`);
 *   await trx.deleteFrom('my_table').where('session_id', '=', sessionId).execute();
 *   await trx.insertInto('my_table').values(rows).execute();
 * });
 * ```
 */
export async function lockKeyForTransaction(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any store's transaction.
  trx: Transaction<any>,
  dialect: SqlDialect,
  key: string,
): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(${advisoryLockId(key)}::bigint)`.execute(trx);
}
