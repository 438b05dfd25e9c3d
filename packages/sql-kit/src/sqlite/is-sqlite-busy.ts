/**
 * Whether `error` is SQLite's "database is locked": `SQLITE_BUSY` or one of its extended codes
 * (`SQLITE_BUSY_RECOVERY`, `SQLITE_BUSY_SNAPSHOT`, `SQLITE_BUSY_TIMEOUT`), as better-sqlite3 reports
 * them in `error.code`. Another connection or process held the lock longer than the busy timeout,
 * or SQLite answered busy without waiting (a journal mode switch, WAL recovery).
 */
export function isSqliteBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
