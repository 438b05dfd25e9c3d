import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';

import type { AnyKysely, SqlDialectName } from './dialect';

/** Table of remembered events. */
export const ENTRIES_TABLE = 'adk_memory_entries';
/** SQLite FTS5 index over {@link ENTRIES_TABLE} (external content, kept in sync by triggers). */
export const FTS_TABLE = 'adk_memory_fts';

function createEntries(db: AnyKysely, dialect: SqlDialectName) {
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

function migrations(dialect: SqlDialectName): Record<string, Migration> {
  return {
    '0001_create_memory': {
      async up(db) {
        if (dialect === 'postgres') {
          await createEntries(db, dialect)
            .addColumn('search_vector', sql`tsvector`, (c) => c.notNull())
            .execute();
          await sql`create index if not exists adk_memory_entries_search_idx on ${sql.table(ENTRIES_TABLE)} using gin (search_vector)`.execute(
            db,
          );
        } else {
          await createEntries(db, dialect).execute();
          await sql`create virtual table if not exists ${sql.table(FTS_TABLE)} using fts5(
            search_text, content=${sql.lit(ENTRIES_TABLE)}, content_rowid='id',
            tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
          await sql`create trigger if not exists adk_memory_fts_insert after insert on ${sql.table(ENTRIES_TABLE)} begin
            insert into ${sql.table(FTS_TABLE)}(rowid, search_text) values (new.id, new.search_text); end`.execute(
            db,
          );
          await sql`create trigger if not exists adk_memory_fts_delete after delete on ${sql.table(ENTRIES_TABLE)} begin
            insert into ${sql.table(FTS_TABLE)}(${sql.table(FTS_TABLE)}, rowid, search_text) values ('delete', old.id, old.search_text); end`.execute(
            db,
          );
          await sql`create trigger if not exists adk_memory_fts_update after update on ${sql.table(ENTRIES_TABLE)} begin
            insert into ${sql.table(FTS_TABLE)}(${sql.table(FTS_TABLE)}, rowid, search_text) values ('delete', old.id, old.search_text);
            insert into ${sql.table(FTS_TABLE)}(rowid, search_text) values (new.id, new.search_text); end`.execute(
            db,
          );
        }
        await db.schema
          .createIndex('adk_memory_entries_user_idx')
          .ifNotExists()
          .on(ENTRIES_TABLE)
          .columns(['app_name', 'user_id'])
          .execute();
      },
      async down(db) {
        if (dialect === 'sqlite')
          await sql`drop table if exists ${sql.table(FTS_TABLE)}`.execute(db);
        await db.schema.dropTable(ENTRIES_TABLE).ifExists().execute();
      },
    },
  };
}

/**
 * Bring the memory tables up to date. Safe to call from several processes at once (Kysely's
 * migrator takes a lock) and cheap when nothing is pending.
 */
export async function migrateMemoryTables(db: AnyKysely, dialect: SqlDialectName): Promise<void> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(dialect) };
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'adk_memory_migrations',
    migrationLockTableName: 'adk_memory_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
}
