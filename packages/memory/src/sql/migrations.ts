import {
  inSchema,
  qualifiedTable,
  type AnyKysely,
  type RunMigrationsOptions,
  type SqlDialect,
  type SqlMigration as Migration,
  type SqlTablesLocation,
} from '@adk/sql-kit';
import { sql } from 'kysely';

/** Table of remembered events. */
export const ENTRIES_TABLE = 'adk_memory_entries';
/** SQLite FTS5 index over {@link ENTRIES_TABLE} (external content, kept in sync by triggers). */
export const FTS_TABLE = 'adk_memory_fts';
/** Kysely's bookkeeping tables for these migrations. */
const BOOKKEEPING = {
  migrationTableName: 'adk_memory_migrations',
  migrationLockTableName: 'adk_memory_migrations_lock',
};

function createEntries(db: AnyKysely, dialect: SqlDialect) {
  return db.schema
    .createTable(ENTRIES_TABLE)
    .ifNotExists()
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
      dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('app_name', 'varchar(256)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('session_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(256)', (c) => c.notNull())
    .addColumn('author', 'varchar(256)')
    .addColumn('timestamp', 'bigint', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('search_text', 'text', (c) => c.notNull())
    .addUniqueConstraint('adk_memory_entries_event_uq', [
      'app_name',
      'user_id',
      'session_id',
      'event_id',
    ]);
}

async function createSqliteIndex(db: AnyKysely): Promise<void> {
  const fts = sql.table(FTS_TABLE);
  const entries = sql.table(ENTRIES_TABLE);
  await sql`create virtual table if not exists ${fts} using fts5(
    search_text, content=${sql.lit(ENTRIES_TABLE)}, content_rowid='id',
    tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
  await sql`create trigger if not exists adk_memory_fts_insert after insert on ${entries} begin
    insert into ${fts}(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
  await sql`create trigger if not exists adk_memory_fts_delete after delete on ${entries} begin
    insert into ${fts}(${fts}, rowid, search_text) values ('delete', old.id, old.search_text); end`.execute(
    db,
  );
  await sql`create trigger if not exists adk_memory_fts_update after update on ${entries} begin
    insert into ${fts}(${fts}, rowid, search_text) values ('delete', old.id, old.search_text);
    insert into ${fts}(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
}

function migrations(location: SqlTablesLocation): Record<string, Migration> {
  const { dialect, schema } = location;
  return {
    '0001_create_memory': {
      async up(root) {
        const db = inSchema(root, schema);
        if (dialect === 'postgres') {
          await createEntries(db, dialect)
            .addColumn('search_vector', sql`tsvector`, (c) => c.notNull())
            .execute();
          await sql`create index if not exists adk_memory_entries_search_idx on ${qualifiedTable(ENTRIES_TABLE, schema)} using gin (search_vector)`.execute(
            root,
          );
        } else {
          await createEntries(db, dialect).execute();
          await createSqliteIndex(root);
        }
        await db.schema
          .createIndex('adk_memory_entries_user_idx')
          .ifNotExists()
          .on(ENTRIES_TABLE)
          .columns(['app_name', 'user_id'])
          .execute();
      },
      async down(root) {
        const db = inSchema(root, schema);
        if (dialect === 'sqlite')
          await sql`drop table if exists ${sql.table(FTS_TABLE)}`.execute(root);
        await db.schema.dropTable(ENTRIES_TABLE).ifExists().execute();
      },
    },
  };
}

/**
 * What `runMigrations` of `@adk/sql-kit` needs to create or upgrade the memory tables (and, on SQLite, the FTS5 index and its triggers) at
 * `location`: idempotent, and safe for several processes migrating one new database at once.
 */
export function memoryTableMigrations(location: SqlTablesLocation): RunMigrationsOptions {
  return { ...location, migrations: migrations(location), ...BOOKKEEPING };
}
