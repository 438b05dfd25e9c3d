import { sql, type Kysely, type RawBuilder } from 'kysely';

import type { VectorSearchQuery } from '../memory-vector-store';
import { MEMORIES_TABLE } from './semantic-tables';

/** pgvector's limit on the length of a `vector` an HNSW index takes. */
export const PGVECTOR_MAX_INDEXED_DIMENSIONS = 2000;
/** pgvector's upper bound of `hnsw.ef_search`. */
const MAX_EF_SEARCH = 1000;

/** Where the `vector` extension lives and what it can do. */
export interface Pgvector {
  /** The schema holding the extension's type and operators (need not be on `search_path`). */
  schema: string;
  /** 0.8 and later scan the index again when filters drop candidates (`hnsw.iterative_scan`). */
  iterativeScan: boolean;
}

/** The `vector` extension of the database, undefined when it is not created there. */
export async function findPgvector(db: Kysely<unknown>): Promise<Pgvector | undefined> {
  const { rows } = await sql<{ schema: string; version: string }>`
    select n.nspname as schema, e.extversion as version
    from pg_extension e join pg_namespace n on n.oid = e.extnamespace
    where e.extname = 'vector'`.execute(db);
  const found = rows[0];
  if (!found) return undefined;
  const [major = 0, minor = 0] = found.version.split('.').map(Number);
  return { schema: found.schema, iterativeScan: major > 0 || minor >= 8 };
}

const vectorType = (pgvector: Pgvector, dimensions?: number): RawBuilder<unknown> =>
  dimensions === undefined
    ? sql`${sql.id(pgvector.schema)}.vector`
    : sql`${sql.id(pgvector.schema)}.vector(${sql.raw(String(Math.floor(dimensions)))})`;

const indexName = (dimensions: number) => `adk_semantic_memories_hnsw_${Math.floor(dimensions)}`;

/** Adds the untyped `embedding_vector` column (one column for every vector length). */
export async function addVectorColumn(db: Kysely<unknown>, pgvector: Pgvector): Promise<void> {
  await sql`alter table ${sql.table(MEMORIES_TABLE)}
    add column if not exists embedding_vector ${vectorType(pgvector)}`.execute(db);
}

/**
 * Creates the HNSW index (cosine) of one vector length: an index on the column cast to
 * `vector(dimensions)`, partial on `embedding_dims`, as pgvector advises for mixed lengths.
 * False for lengths pgvector cannot index (search stays exact for them).
 */
export async function ensureDimensionIndex(
  db: Kysely<unknown>,
  pgvector: Pgvector,
  dimensions: number,
): Promise<boolean> {
  if (dimensions > PGVECTOR_MAX_INDEXED_DIMENSIONS) return false;
  await sql`create index if not exists ${sql.id(indexName(dimensions))} on ${sql.table(MEMORIES_TABLE)}
    using hnsw ((embedding_vector::${vectorType(pgvector, dimensions)})
      ${sql.id(pgvector.schema)}.vector_cosine_ops)
    where embedding_dims = ${sql.lit(Math.floor(dimensions))}`.execute(db);
  return true;
}

const vectorText = (vector: readonly number[]) => `[${vector.join(',')}]`;

/** A vector as the value of the `embedding_vector` column. */
export function pgVectorValue(pgvector: Pgvector, vector: readonly number[]): RawBuilder<unknown> {
  return sql`cast(${vectorText(vector)} as ${vectorType(pgvector)})`;
}

/** Writes the `embedding_vector` of rows (one statement per call). */
export async function putPgVectors(
  db: Kysely<unknown>,
  pgvector: Pgvector,
  rows: readonly { id: number; vector: readonly number[] }[],
): Promise<void> {
  if (rows.length === 0) return;
  await sql`update ${sql.table(MEMORIES_TABLE)} e
    set embedding_vector = cast(v.vector as ${vectorType(pgvector)})
    from unnest(cast(${rows.map((r) => r.id)} as bigint[]), cast(${rows.map((r) => vectorText(r.vector))} as text[]))
      as v(id, vector)
    where e.id = v.id`.execute(db);
}

/**
 * Nearest vectors by cosine distance through the HNSW index of the query's length. On pgvector
 * 0.8+ the scan continues while the user filter drops candidates (`strict_order`), and
 * `ef_search` is raised to the limit, so a user among many gets their `limit` best. Runs in a
 * transaction so that the settings are local to it.
 */
export async function pgvectorSearch(
  db: Kysely<unknown>,
  pgvector: Pgvector,
  query: VectorSearchQuery,
): Promise<{ id: number; score: number }[]> {
  const dimensions = query.vector.length;
  const type = vectorType(pgvector, dimensions);
  const distance = sql`embedding_vector::${type} operator(${sql.id(pgvector.schema)}.<=>) cast(${vectorText(query.vector)} as ${type})`;
  const rows = await db.transaction().execute(async (trx) => {
    const efSearch = String(Math.min(MAX_EF_SEARCH, Math.max(40, query.limit)));
    await sql`select set_config('hnsw.ef_search', ${efSearch}, true)`.execute(trx);
    if (pgvector.iterativeScan)
      await sql`select set_config('hnsw.iterative_scan', 'strict_order', true)`.execute(trx);
    const result = await sql<{ id: string; score: number }>`
      select id, 1 - (${distance}) as score from ${sql.table(MEMORIES_TABLE)}
      where app_name = ${query.appName} and user_id = ${query.userId}
        and embedding_model = ${query.model} and embedding_dims = ${sql.lit(dimensions)}
      order by ${distance} limit ${query.limit}`.execute(trx);
    return result.rows;
  });
  return rows
    .map((r) => ({ id: Number(r.id), score: Number(r.score) }))
    .filter((r) => r.score >= query.minSimilarity);
}
