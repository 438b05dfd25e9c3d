import { Migrator, sql, type Kysely } from 'kysely';

import type { DialectKind } from '../dialect';
import { MigrationError, SchemaVersionError } from '../errors';
import { sessionMigrations } from './migrations';
import { withSqliteWriteLock } from './sqlite-write-lock';
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
 * Create or upgrade the session tables (idempotent). A database whose `schema_version` is newer
 * than this package's is refused with `SchemaVersionError` before anything is changed.
 *
 * Concurrent callers, in one process or several, wait for each other: on PostgreSQL through
 * Kysely's migration lock (an advisory lock), on SQLite by holding the database's write lock
 * (`BEGIN IMMEDIATE`) from the version check to the last migration, because Kysely takes no lock
 * on SQLite and two processes migrating a new file would both run the first migration.
 */
export async function migrateSessionSchema(
  db: Kysely<unknown>,
  location: SchemaLocation,
): Promise<void> {
  if (location.kind === 'sqlite') {
    await withSqliteWriteLock(db, (locked) => migrateNow(locked, location));
  } else {
    await migrateNow(db, location);
  }
}

/**
 * `create schema if not exists`, tolerating a concurrent creator: PostgreSQL checks existence
 * before inserting into its catalog, so two sessions creating the same new schema at once can
 * still fail on the catalog's unique index (23505) or with "already exists" (42P06).
 */
async function createSchemaIfMissing(db: Kysely<unknown>, schema: string): Promise<void> {
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

async function migrateNow(db: Kysely<unknown>, location: SchemaLocation): Promise<void> {
  assertSupported(await readSchemaVersion(db, location));
  const schema = await migrationSchema(db, location);
  if (location.kind === 'postgres' && location.schema !== undefined) {
    await createSchemaIfMissing(db, location.schema);
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
