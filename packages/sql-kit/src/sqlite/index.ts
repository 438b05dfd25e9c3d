export {
  enableSqliteWal,
  type EnableSqliteWalOptions,
  type SqlitePragmaRunner,
} from './enable-sqlite-wal';
export { isSqliteBusy } from './is-sqlite-busy';
export { retryWhileSqliteBusy, type RetryWhileSqliteBusyOptions } from './retry-while-sqlite-busy';
export { SqliteBusyError } from './sqlite-busy-error';
export {
  DEFAULT_SQLITE_SYNCHRONOUS,
  parseSqliteSynchronous,
  setSqliteSynchronous,
  sqliteSynchronousName,
  type SqliteSynchronous,
} from './sqlite-synchronous';
export { withSqliteWriteLock } from './with-sqlite-write-lock';
