import {
  inSchema,
  type RunMigrationsOptions,
  type SqlMigration as Migration,
  type SqlTablesLocation,
} from '@adk/sql-kit';

/** Name of the table holding every artifact version. */
export const ARTIFACTS_TABLE = 'adk_artifacts';
/** Kysely's bookkeeping tables for these migrations. */
const BOOKKEEPING = {
  migrationTableName: 'adk_artifacts_migrations',
  migrationLockTableName: 'adk_artifacts_migrations_lock',
};

function migrations({ dialect, schema }: SqlTablesLocation): Record<string, Migration> {
  return {
    '0001_create_artifacts': {
      async up(root) {
        const db = inSchema(root, schema);
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
        const db = inSchema(root, schema);
        await db.schema.dropTable(ARTIFACTS_TABLE).ifExists().execute();
      },
    },
  };
}

/**
 * What `runMigrations` of `@adk/sql-kit` needs to create or upgrade the artifact table at
 * `location`: idempotent, and safe for several processes migrating one new database at once.
 */
export function artifactTableMigrations(location: SqlTablesLocation): RunMigrationsOptions {
  return { ...location, migrations: migrations(location), ...BOOKKEEPING };
}
