export { maskDatabaseUrl, parseDatabaseUrl, type DatabaseUrl } from './database-url';
export {
  openSqlDatabase,
  type OpenSqlDatabaseOptions,
  type OpenedSqlDatabase,
} from './open-sql-database';
export { assertDriverSupportsNode } from './driver-engines';
export { SqlDriverMissingError, type SqlDriverMissingReason } from './sql-driver-missing-error';
