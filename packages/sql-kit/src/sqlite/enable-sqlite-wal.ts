import { isSqliteBusy } from './is-sqlite-busy';
import type { SqlitePragmaRunner } from './pragma-runner';
import {
  DEFAULT_SQLITE_SYNCHRONOUS,
  parseSqliteSynchronous,
  setSqliteSynchronous,
  type SqliteSynchronous,
} from './sqlite-synchronous';

export type { SqlitePragmaRunner };

/** Options of {@link enableSqliteWal}. */
export interface EnableSqliteWalOptions {
  /**
   * The connection's `synchronous` mode (default `full`: a commit that returned survives a power
   * failure). better-sqlite3's own default in WAL mode is `normal`, which can lose the last
   * commits on a power failure or OS crash.
   */
  synchronous?: SqliteSynchronous;
}

/** Pause between two attempts to switch a file to WAL while another connection holds it. */
const RETRY_PAUSE_MS = 10;

/**
 * Switch a SQLite file to the WAL journal, waiting up to `timeoutMs` for other connections, and
 * set the connection's `synchronous` mode (`full` unless `options.synchronous` says otherwise).
 *
 * Changing the journal mode needs the file to itself, and SQLite answers `SQLITE_BUSY` at once,
 * without calling the busy handler, while another process is opening or switching the same new
 * file: two processes starting on one new database would otherwise see "database is locked". The
 * switch is retried on `SQLITE_BUSY` until `timeoutMs` has passed (it is a no-op once the file is
 * in WAL mode, which persists); any other error is thrown at once.
 *
 * @example
 * ```ts
 * const database = new SQLite('app.db');
 * database.pragma('busy_timeout = 5000');
 * await enableSqliteWal(database, 5000);
 * ```
 */
export async function enableSqliteWal(
  database: SqlitePragmaRunner,
  timeoutMs: number,
  options: EnableSqliteWalOptions = {},
): Promise<void> {
  // Checked before touching the file: a bad mode changes nothing.
  const synchronous = parseSqliteSynchronous(options.synchronous ?? DEFAULT_SQLITE_SYNCHRONOUS);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      // SQLite answers the mode in force: 'wal', or the old mode where WAL is impossible (a file
      // system without shared memory), which is kept as it is.
      database.pragma('journal_mode = WAL');
      setSqliteSynchronous(database, synchronous);
      return;
    } catch (error) {
      if (!isSqliteBusy(error) || Date.now() >= deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
  }
}
