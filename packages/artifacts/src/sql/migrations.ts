import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';

import type { AnyKysely, SqlDialectName } from './dialect';
import { withSqliteWriteLock } from './sqlite-write-lock';

/** Name of the table holding every artifact version. */
export const ARTIFACTS_TABLE = 'adk_artifacts';
const MIGRATION_TABLE = 'adk_artifacts_migrations';
const MIGRATION_LOCK_TABLE = 'adk_artifacts_migrations_lock';

/** Where the artifact table lives: a PostgreSQL schema, or the connection's default. */
export interface ArtifactTablesLocation {
  dialect: SqlDialectName;
  /** PostgreSQL only; the connection's current schema when omitted. */
  schema?: string | undefined;
}

function migrations({ dialect, schema }: ArtifactTablesLocation): Record<string, Migration> {
  return {
    '0001_create_artifacts': {
      async up(root) {
        const db = schema === undefined ? root : root.withSchema(schema);
        await db.schema
          .createTable(ARTIFACTS_TABLE)
          .ifNotExists()
          .addColumn('app_name', 'varchar(256)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
          // '' for user-scoped (`user:`) names, which belong to no session.
          .addColumn('session_id', 'varchar(256)', (c) => c.notNull())
          .addColumn('filename', 'varchar(1024)', (c) => c.notNull())
          .addColumn('version', 'integer', (c) => c.notNull())
          .addColumn('kind', 'varchar(16)', (c) => c.notNull())
          .addColumn('mime_type', 'varchar(256)')
          .addColumn('display_name', 'varchar(1024)')
          .addColumn('file_uri', 'text')
          .addColumn('data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
          .addColumn('custom_metadata', 'text')
          .addColumn('create_time', 'bigint', (c) => c.notNull())
          .addPrimaryKeyConstraint('adk_artifacts_pk', [
            'app_name',
            'user_id',
            'session_id',
            'filename',
            'version',
          ])
          .execute();
      },
      async down(root) {
        const db = schema === undefined ? root : root.withSchema(schema);
        await db.schema.dropTable(ARTIFACTS_TABLE).ifExists().execute();
      },
    },
  };
}

/**
 * Bring the artifact tables up to date. Safe to call from several processes at once and cheap when
 * nothing is pending: on PostgreSQL Kysely's migrator takes an advisory lock; on SQLite, where it
 * takes none, the whole migration runs under the file's write lock (`BEGIN IMMEDIATE`), so two
 * processes migrating a new file never both run the first migration.
 */
export async function migrateArtifactTables(
  db: AnyKysely,
  location: ArtifactTablesLocation,
): Promise<void> {
  if (location.dialect === 'sqlite') {
    await withSqliteWriteLock(db, (locked) => migrateNow(locked, location));
  } else {
    await migrateNow(db, location);
  }
}

async function migrateNow(db: AnyKysely, location: ArtifactTablesLocation): Promise<void> {
  let migrationTableSchema: string | undefined;
  if (location.dialect === 'postgres') {
    if (location.schema !== undefined) await createSchemaIfMissing(db, location.schema);
    // Pin the bookkeeping tables to one schema: Kysely would otherwise take a migration table of
    // any schema on the search path for this one's.
    migrationTableSchema =
      location.schema ??
      (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]
        ?.schema;
  }
  const provider: MigrationProvider = { getMigrations: async () => migrations(location) };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    ...(migrationTableSchema === undefined ? {} : { migrationTableSchema }),
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}

/**
 * `create schema if not exists`, tolerating a concurrent creator (PostgreSQL can still fail on its
 * catalog's unique index, 23505, or with 42P06 when two sessions create one new schema at once).
 */
async function createSchemaIfMissing(db: AnyKysely, schema: string): Promise<void> {
  try {
    await db.schema.createSchema(schema).ifNotExists().execute();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}
