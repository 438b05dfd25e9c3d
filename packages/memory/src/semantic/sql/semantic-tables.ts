import type { RunMigrationsOptions, SqlDialect, SqlMigration } from '@adk/sql-kit';
import { sql, type Generated, type Kysely } from 'kysely';

import { backfillSketches } from './backfill-sketches';

/** Table of semantic memories (events and facts, with their embeddings). */
export const MEMORIES_TABLE = 'adk_semantic_memories';
/** SQLite FTS5 index over {@link MEMORIES_TABLE} (external content, kept by triggers). */
export const MEMORIES_FTS_TABLE = 'adk_semantic_memories_fts';
/** sqlite-vec tables, one per vector length: `adk_semantic_vec_<dimensions>`. */
export const VEC_TABLE_PREFIX = 'adk_semantic_vec_';

/** A row of {@link MEMORIES_TABLE}. */
export interface MemoryRow {
  id: Generated<number>;
  app_name: string;
  user_id: string;
  kind: string;
  session_id: string | null;
  event_id: string | null;
  author: string | null;
  timestamp: number | string;
  content: string;
  search_text: string;
  /** Float32 little-endian bytes (SQLite `blob`, PostgreSQL `bytea` since migration 0002). */
  embedding: Uint8Array | null;
  embedding_model: string | null;
  embedding_dims: number | null;
  /** PostgreSQL only (migration 0003): the int8 sketch of `embedding` (see `vector-sketch.ts`). */
  embedding_sketch?: Uint8Array | null;
  /** PostgreSQL only. */
  search_vector: Generated<string>;
}

export interface SemanticDatabase {
  [MEMORIES_TABLE]: MemoryRow;
}

function migrations(dialect: SqlDialect): Record<string, SqlMigration> {
  return {
    '0001_create_semantic_memories': {
      async up(db) {
        const pg = dialect === 'postgres';
        let table = db.schema
          .createTable(MEMORIES_TABLE)
          .ifNotExists()
          .addColumn('id', pg ? 'bigserial' : 'integer', (c) =>
            pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
          )
          .addColumn('app_name', 'varchar(256)', (c) => c.notNull())
          .addColumn('user_id', 'varchar(256)', (c) => c.notNull())
          .addColumn('kind', 'varchar(16)', (c) => c.notNull())
          .addColumn('session_id', 'varchar(256)')
          .addColumn('event_id', 'varchar(256)')
          .addColumn('author', 'varchar(256)')
          .addColumn('timestamp', 'bigint', (c) => c.notNull())
          .addColumn('content', 'text', (c) => c.notNull())
          .addColumn('search_text', 'text', (c) => c.notNull())
          .addColumn('embedding', pg ? sql`real[]` : 'blob')
          .addColumn('embedding_model', 'varchar(256)')
          .addColumn('embedding_dims', 'integer')
          // One row per event of a session: concurrent refreshes of a session retry, never duplicate.
          .addUniqueConstraint('adk_semantic_memories_event_uq', [
            'app_name',
            'user_id',
            'session_id',
            'event_id',
          ]);
        if (pg) table = table.addColumn('search_vector', sql`tsvector`, (c) => c.notNull());
        await table.execute();
        await db.schema
          .createIndex('adk_semantic_memories_user_idx')
          .ifNotExists()
          .on(MEMORIES_TABLE)
          .columns(['app_name', 'user_id', 'embedding_model'])
          .execute();
        if (pg) {
          await sql`create index if not exists adk_semantic_memories_search_idx on ${sql.table(MEMORIES_TABLE)} using gin (search_vector)`.execute(
            db,
          );
          return;
        }
        const fts = sql.table(MEMORIES_FTS_TABLE);
        const t = sql.table(MEMORIES_TABLE);
        await sql`create virtual table if not exists ${fts} using fts5(
          search_text, content=${sql.lit(MEMORIES_TABLE)}, content_rowid='id',
          tokenize='porter unicode61 remove_diacritics 2')`.execute(db);
        await sql`create trigger if not exists adk_semantic_fts_insert after insert on ${t} begin
          insert into ${fts}(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
        await sql`create trigger if not exists adk_semantic_fts_delete after delete on ${t} begin
          insert into ${fts}(${fts}, rowid, search_text) values ('delete', old.id, old.search_text); end`.execute(
          db,
        );
        await sql`create trigger if not exists adk_semantic_fts_update after update of search_text on ${t} begin
          insert into ${fts}(${fts}, rowid, search_text) values ('delete', old.id, old.search_text);
          insert into ${fts}(rowid, search_text) values (new.id, new.search_text); end`.execute(db);
      },
      async down(db) {
        if (dialect === 'sqlite')
          await sql`drop table if exists ${sql.table(MEMORIES_FTS_TABLE)}`.execute(db);
        await db.schema.dropTable(MEMORIES_TABLE).ifExists().execute();
      },
    },
    // PostgreSQL kept vectors as `real[]` and summed the products in SQL: about 1 ms per row.
    // Float32 bytes read page by page and compared in process (as on SQLite) are ~50x faster.
    '0002_postgres_vectors_as_bytes': {
      async up(db) {
        if (dialect !== 'postgres') return;
        const t = sql.table(MEMORIES_TABLE);
        await sql`alter table ${t} add column embedding_bytes bytea`.execute(db);
        // float4send is big-endian; the bytes of each float are reversed to little-endian.
        await sql`update ${t} e set embedding_bytes = (
          select string_agg(substr(b, 4, 1) || substr(b, 3, 1) || substr(b, 2, 1) || substr(b, 1, 1),
            ''::bytea order by o)
          from unnest(e.embedding) with ordinality as u(x, o), lateral float4send(x) as b)
          where e.embedding is not null`.execute(db);
        await sql`alter table ${t} drop column embedding`.execute(db);
        await sql`alter table ${t} rename column embedding_bytes to embedding`.execute(db);
        // Keyset pages (`id > after order by id`) of one user's vectors come from this index.
        await sql`create index if not exists adk_semantic_memories_user_id_idx
          on ${t} (app_name, user_id, embedding_model, id)`.execute(db);
        await sql`drop index if exists adk_semantic_memories_user_idx`.execute(db);
      },
    },
    // Exact search read 30 MB of float32 per search at 10k x 768; it now scores an int8 copy
    // (a quarter of the bytes) first and reads the full vectors of the few candidates only.
    '0003_postgres_vector_sketches': {
      async up(db) {
        if (dialect !== 'postgres') return;
        await sql`alter table ${sql.table(MEMORIES_TABLE)} add column if not exists embedding_sketch bytea`.execute(
          db,
        );
        await backfillSketches(db as Kysely<unknown>, MEMORIES_TABLE);
      },
    },
  };
}

/** What `runMigrations` of `@adk/sql-kit` needs to create the semantic memory tables. */
export function semanticTableMigrations(dialect: SqlDialect): RunMigrationsOptions {
  return {
    dialect,
    migrations: migrations(dialect),
    migrationTableName: 'adk_semantic_migrations',
    migrationLockTableName: 'adk_semantic_migrations_lock',
  };
}
