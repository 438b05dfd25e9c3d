import {
  checkSchemaVersion,
  runMigrations,
  type SchemaVersioning,
  type SqlTablesLocation,
} from '@adk/sql-kit';
import type { Kysely } from 'kysely';

import { MigrationError, SchemaVersionError } from '../errors';
import { sessionMigrations } from './migrations';
import { SCHEMA_VERSION } from './tables';

const MIGRATION_TABLE = 'adk_session_migration';
const MIGRATION_LOCK_TABLE = 'adk_session_migration_lock';

/** `schema_version` in `adk_internal_metadata`; a missing or newer schema is a `SchemaVersionError`. */
const versioning: SchemaVersioning = {
  metadataTable: 'adk_internal_metadata',
  supported: SCHEMA_VERSION,
  error: ({ found, supported, migrationError }) => {
    if (migrationError === undefined) return new SchemaVersionError({ found, supported });
    // Our bookkeeping lists a migration this version does not know: a newer version ran here.
    const message =
      migrationError instanceof Error ? migrationError.message : String(migrationError);
    return new SchemaVersionError({
      found,
      supported,
      message: `This database was migrated by a newer @adk/session-sql (${message}). Upgrade @adk/session-sql.`,
      cause: migrationError,
    });
  },
};

/** Check that the schema is installed and supported; throws `SchemaVersionError`. */
export async function checkSchema(db: Kysely<unknown>, location: SqlTablesLocation): Promise<void> {
  await checkSchemaVersion(db, versioning, location.schema);
}

/**
 * Create or upgrade the session tables (idempotent). A database whose `schema_version` is newer
 * than this package's is refused with `SchemaVersionError` before anything is changed; a failed
 * migration is a `MigrationError`.
 *
 * Concurrent callers, in one process or several, wait for each other: on PostgreSQL through
 * Kysely's migration lock (an advisory lock), on SQLite by holding the database's write lock
 * (`BEGIN IMMEDIATE`) from the version check to the last migration, because Kysely takes no lock
 * on SQLite and two processes migrating a new file would both run the first migration (see
 * `runMigrations` of `@adk/sql-kit`).
 */
export async function migrateSessionSchema(
  db: Kysely<unknown>,
  location: SqlTablesLocation,
): Promise<void> {
  await runMigrations(db, {
    ...location,
    migrations: await sessionMigrations(location.dialect, location.schema).getMigrations(),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    versioning,
    migrationError: ({ error, migrationName }) =>
      new MigrationError({ migrationName, cause: error }),
  });
}
