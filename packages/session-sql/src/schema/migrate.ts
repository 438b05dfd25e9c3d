import { Migrator, sql, type Kysely } from 'kysely';

import type { DialectKind } from '../dialect';
import { MigrationError, SchemaVersionError } from '../errors';
import { sessionMigrations } from './migrations';
import { SCHEMA_VERSION } from './tables';

/** Where the session tables live. */
export interface SchemaLocation {
  kind: DialectKind;
  /** PostgreSQL schema; the connection's current schema when omitted. */
  schema?: string;
}

const MIGRATION_TABLE = 'adk_session_migration';
const MIGRATION_LOCK_TABLE = 'adk_session_migration_lock';

/** The `schema_version` stored in the database, or `undefined` when the tables are missing. */
export async function readSchemaVersion(
  db: Kysely<unknown>,
  location: SchemaLocation,
): Promise<string | undefined> {
  const table =
    location.schema === undefined
      ? sql.table('adk_internal_metadata')
      : sql.id(location.schema, 'adk_internal_metadata');
  try {
    const result = await sql<{
      value: string;
    }>`select value from ${table} where key = 'schema_version'`.execute(db);
    return result.rows[0]?.value;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/no such table|does not exist/i.test(message)) return undefined;
    throw error;
  }
}

/** Refuse a database written by a newer schema. */
function assertSupported(found: string | undefined): void {
  if (found !== undefined && Number(found) > Number(SCHEMA_VERSION)) {
    throw new SchemaVersionError({ found, supported: SCHEMA_VERSION });
  }
}

/** Check that the schema is installed and supported; throws `SchemaVersionError`. */
export async function checkSchema(db: Kysely<unknown>, location: SchemaLocation): Promise<void> {
  const found = await readSchemaVersion(db, location);
  if (found === undefined)
    throw new SchemaVersionError({ found: undefined, supported: SCHEMA_VERSION });
  assertSupported(found);
}

async function migrationSchema(
  db: Kysely<unknown>,
  location: SchemaLocation,
): Promise<string | undefined> {
  if (location.kind !== 'postgres') return undefined;
  if (location.schema !== undefined) return location.schema;
  // Pin Kysely's bookkeeping tables to the current schema, so that other schemas of the same
  // database (other apps, other test runs) are never mistaken for this one.
  const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return result.rows[0]?.schema;
}

/**
 * Create or upgrade the session tables (idempotent; concurrent callers on PostgreSQL wait for each
 * other). A database whose `schema_version` is newer than this package's is refused with
 * `SchemaVersionError` before anything is changed.
 */
export async function migrateSessionSchema(
  db: Kysely<unknown>,
  location: SchemaLocation,
): Promise<void> {
  assertSupported(await readSchemaVersion(db, location));
  const schema = await migrationSchema(db, location);
  if (location.kind === 'postgres' && location.schema !== undefined) {
    await db.schema.createSchema(location.schema).ifNotExists().execute();
  }
  const migrator = new Migrator({
    db,
    provider: sessionMigrations(location.kind, location.schema),
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const message = error instanceof Error ? error.message : String(error);
    if (message.includes('corrupted migrations')) {
      // Our bookkeeping lists a migration this version does not know: a newer version ran here.
      throw new SchemaVersionError({
        found: (await readSchemaVersion(db, location)) ?? 'unknown',
        supported: SCHEMA_VERSION,
        message: `This database was migrated by a newer @adk/session-sql (${message}). Upgrade @adk/session-sql.`,
        cause: error,
      });
    }
    const failed = results?.find((result) => result.status === 'Error');
    throw new MigrationError({ migrationName: failed?.migrationName, cause: error });
  }
  assertSupported(await readSchemaVersion(db, location));
}
