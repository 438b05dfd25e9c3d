export { maskDatabaseUrl, parseDatabaseUrl, type DatabaseUrl } from './database-url';
export {
  openSqlDatabase,
  type OpenSqlDatabaseOptions,
  type OpenedSqlDatabase,
} from './open-sql-database';
export { SqlDriverMissingError } from './sql-driver-missing-error';
