import { Migrator, type Migration, type MigrationProvider } from 'kysely';

import type { AnyKysely, SqlDialectName } from './dialect';
import { withSqliteWriteLock } from './sqlite-write-lock';

/** Name of the table holding every artifact version. */
export const ARTIFACTS_TABLE = 'adk_artifacts';
const MIGRATION_TABLE = 'adk_artifacts_migrations';
const MIGRATION_LOCK_TABLE = 'adk_artifacts_migrations_lock';

function migrations(dialect: SqlDialectName): Record<string, Migration> {
  return {
    '0001_create_artifacts': {
      async up(db) {
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
      async down(db) {
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
export async function migrateArtifactTables(db: AnyKysely, dialect: SqlDialectName): Promise<void> {
  if (dialect === 'sqlite') {
    await withSqliteWriteLock(db, (locked) => migrateNow(locked, dialect));
  } else {
    await migrateNow(db, dialect);
  }
}

async function migrateNow(db: AnyKysely, dialect: SqlDialectName): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
