export { enableSqliteWal, type SqlitePragmaRunner } from './enable-sqlite-wal';
export { withSqliteWriteLock } from './with-sqlite-write-lock';
