export {
  enableSqliteWal,
  type EnableSqliteWalOptions,
  type SqlitePragmaRunner,
} from './enable-sqlite-wal';
export {
  DEFAULT_SQLITE_SYNCHRONOUS,
  parseSqliteSynchronous,
  setSqliteSynchronous,
  sqliteSynchronousName,
  type SqliteSynchronous,
} from './sqlite-synchronous';
export { withSqliteWriteLock } from './with-sqlite-write-lock';
