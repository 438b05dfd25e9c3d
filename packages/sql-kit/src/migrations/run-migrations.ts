import { sql } from 'kysely';

import type { AnyKysely } from '../dialect';
import type { SqlTablesLocation } from '../location';
import { createSchemaIfMissing } from '../postgres';
import { withSqliteWriteLock } from '../sqlite';
import { loadMigrator } from './load-migrator';
import { assertNotNewer, readSchemaVersion, type SchemaVersioning } from './schema-versioning';
import type { SqlMigration } from './sql-migration';

/** What {@link runMigrations} runs, and where. */
export interface RunMigrationsOptions extends SqlTablesLocation {
  /**
   * PostgreSQL schema holding the tables (created when missing, tolerating a concurrent creator);
   * the connection's current schema when omitted. Migrations receive the caller's Kysely and
   * apply the schema themselves (`inSchema(db, schema)`).
   */
  schema?: string | undefined;
  /** The migrations, by name; Kysely runs them in name order. */
  migrations: Record<string, SqlMigration>;
  /** Kysely's bookkeeping table (one per store, for example `adk_memory_migrations`). */
  migrationTableName: string;
  /** Kysely's lock table (for example `adk_memory_migrations_lock`). */
  migrationLockTableName: string;
  /**
   * Check the stored schema version before migrating and after: a newer database is refused with
   * the versioning's error before anything changes. Without it no version is read.
   */
  versioning?: SchemaVersioning | undefined;
  /**
   * The error to throw when a migration fails (it was rolled back); default: Kysely's error as it
   * is. `migrationName` is the failed migration's, when Kysely reports one.
   */
  migrationError?: (failure: { error: unknown; migrationName: string | undefined }) => Error;
}

/**
 * Bring a store's tables up to date with Kysely's `Migrator` (from the package root on Kysely 0.28,
 * from `kysely/migration` on 0.29; idempotent, cheap when nothing is
 * pending).
 *
 * Safe to call from several processes at once, even on a brand-new database: on PostgreSQL
 * Kysely's migrator takes an advisory lock; on SQLite, where it takes none, the whole run (version
 * check included) holds the file's write lock (`BEGIN IMMEDIATE`), so two processes never both
 * run the first migration. On PostgreSQL the bookkeeping tables are pinned to `schema` (or the
 * current schema): Kysely would otherwise take another schema's table on the search path for
 * this one's.
 *
 * @example
 * ```ts
 * await runMigrations(db, {
 *   dialect: 'sqlite',
 *   migrations: { '0001_create_notes': { up: (db) => db.schema.createTable('notes')...execute() } },
 *   migrationTableName: 'adk_notes_migrations',
 *   migrationLockTableName: 'adk_notes_migrations_lock',
 * });
 * ```
 */
export async function runMigrations(db: AnyKysely, options: RunMigrationsOptions): Promise<void> {
  if (options.dialect === 'sqlite') {
    await withSqliteWriteLock(db, (locked) => migrateNow(locked, options));
  } else {
    await migrateNow(db, options);
  }
}

/**
 * PostgreSQL's "schema does not exist" and "relation does not exist". Kysely's migrator looks for
 * its bookkeeping table by introspecting every table of the database, and that query fails with
 * one of these when another session drops a schema or a table at the same moment (another app's
 * clean-up, a parallel test run), although nothing of ours changed: the run is retried.
 */
const CONCURRENT_DROP_CODES: ReadonlySet<string> = new Set(['3F000', '42P01']);
const MAX_CONCURRENT_DROP_RETRIES = 5;

/** Whether a failed run failed that way, before any migration of ours ran. */
function droppedMeanwhile(
  error: unknown,
  results: readonly { status: string }[] | undefined,
): boolean {
  if (error === null || typeof error !== 'object') return false;
  const code = (error as { code?: unknown }).code;
  return (
    typeof code === 'string' &&
    CONCURRENT_DROP_CODES.has(code) &&
    !(results ?? []).some((result) => result.status === 'Error')
  );
}

async function migrateNow(db: AnyKysely, options: RunMigrationsOptions): Promise<void> {
  const { versioning, schema } = options;
  const readVersion = ({ metadataTable }: SchemaVersioning) =>
    readSchemaVersion(db, { metadataTable, schema });
  if (versioning) assertNotNewer(versioning, await readVersion(versioning));
  let migrationTableSchema: string | undefined;
  if (options.dialect === 'postgres') {
    if (schema !== undefined) await createSchemaIfMissing(db, schema);
    migrationTableSchema =
      schema ??
      (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
        ?.schema;
  }
  const Migrator = await loadMigrator();
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => options.migrations },
    migrationTableName: options.migrationTableName,
    migrationLockTableName: options.migrationLockTableName,
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  });
  let { error, results } = await migrator.migrateToLatest();
  for (
    let retry = 0;
    retry < MAX_CONCURRENT_DROP_RETRIES && droppedMeanwhile(error, results);
    retry++
  ) {
    if (schema !== undefined) await createSchemaIfMissing(db, schema);
    ({ error, results } = await migrator.migrateToLatest());
  }
  if (error !== undefined) {
    const message = error instanceof Error ? error.message : String(error);
    if (versioning && message.includes('corrupted migrations')) {
      // The bookkeeping lists a migration this code does not know: a newer version ran here.
      throw versioning.error({
        found: (await readVersion(versioning)) ?? 'unknown',
        supported: versioning.supported,
        migrationError: error,
      });
    }
    const migrationName = results?.find((result) => result.status === 'Error')?.migrationName;
    throw options.migrationError ? options.migrationError({ error, migrationName }) : error;
  }
  if (versioning) assertNotNewer(versioning, await readVersion(versioning));
}
