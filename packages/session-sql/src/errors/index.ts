export { CorruptEventError } from './corrupt-event-error';
export { MigrationError } from './migration-error';
export { SchemaVersionError } from './schema-version-error';
export { SqlDriverMissingError, SqliteBusyError } from '@adk/sql-kit';
export { SessionLockClosedError } from './session-lock-closed-error';
