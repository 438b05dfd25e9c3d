import { isSqliteBusy } from './is-sqlite-busy';
import { SqliteBusyError } from './sqlite-busy-error';

/** Options of {@link retryWhileSqliteBusy}. */
export interface RetryWhileSqliteBusyOptions {
  /**
   * Start no new attempt once this many milliseconds have passed since the first one (each
   * attempt may itself wait up to the connection's busy timeout). At least one attempt is made.
   */
  retryMs: number;
  /** Longest pause between two attempts, in ms (default 50; each pause is random up to it). */
  maxPauseMs?: number;
}

/**
 * Run `work`, and run it again while it fails with `SQLITE_BUSY` ({@link isSqliteBusy}), pausing a
 * few random milliseconds between attempts (without blocking the event loop) so that competing
 * processes do not retry in step. Once `retryMs` has passed, the last busy failure is thrown as
 * {@link SqliteBusyError} (typed and retryable); any other error is thrown at once, as it is.
 *
 * Only for work that writes nothing when it fails busy: a read, or a whole transaction (SQLite rolls
 * a failed one back, as {@link withSqliteWriteLock} does), never a statement inside a transaction.
 *
 * @example
 * ```ts
 * const order = await retryWhileSqliteBusy(
 *   () => withSqliteWriteLock(db, (locked) => appendRow(locked)),
 *   { retryMs: 15_000 },
 * );
 * ```
 */
export async function retryWhileSqliteBusy<T>(
  work: () => Promise<T>,
  options: RetryWhileSqliteBusyOptions,
): Promise<T> {
  const started = Date.now();
  const maxPauseMs = options.maxPauseMs ?? 50;
  for (let attempts = 1; ; attempts++) {
    try {
      return await work();
    } catch (error) {
      if (!isSqliteBusy(error)) throw error;
      const waitedMs = Date.now() - started;
      if (waitedMs >= options.retryMs)
        throw new SqliteBusyError({ attempts, waitedMs, cause: error });
    }
    await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * maxPauseMs));
  }
}
