import type { SqlDialect } from '@adk/sql-kit';
import { sql, type Kysely } from 'kysely';

import { MEMORIES_TABLE } from './semantic-tables';
import { hasSqliteVec } from './sqlite-vec-index';

/** The vector index a SQL store uses; undefined: exact search. */
export type VectorIndexKind = 'sqlite-vec' | 'pgvector' | undefined;

/**
 * Which vector index the database offers: sqlite-vec when loaded into the SQLite connection;
 * pgvector when the PostgreSQL database has the `vector` extension and `dimensions` is known
 * (then the `embedding_vector vector(dimensions)` column and its HNSW index are created).
 */
export async function probeVectorIndex(
  db: Kysely<unknown>,
  dialect: SqlDialect,
  options: { vectorIndex?: 'auto' | 'exact'; dimensions?: number },
): Promise<VectorIndexKind> {
  if (options.vectorIndex === 'exact') return undefined;
  if (dialect === 'sqlite') return (await hasSqliteVec(db)) ? 'sqlite-vec' : undefined;
  const { rows } = await sql<{
    n: number;
  }>`select count(*) as n from pg_extension where extname = 'vector'`.execute(db);
  if (Number(rows[0]?.n ?? 0) === 0 || !options.dimensions) return undefined;
  const table = sql.table(MEMORIES_TABLE);
  await sql`alter table ${table} add column if not exists embedding_vector vector(${sql.raw(String(Math.floor(options.dimensions)))})`.execute(
    db,
  );
  await sql`create index if not exists adk_semantic_memories_hnsw_idx on ${table}
    using hnsw (embedding_vector vector_cosine_ops)`.execute(db);
  return 'pgvector';
}
