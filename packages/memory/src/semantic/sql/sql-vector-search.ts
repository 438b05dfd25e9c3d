import { EmbeddingDimensionMismatchError } from '@adk/core';
import { sql, type Kysely } from 'kysely';

import type { VectorSearchQuery, WordSearchQuery } from '../memory-vector-store';
import { dot, TopK } from '../vector-math';
import { MEMORIES_FTS_TABLE, MEMORIES_TABLE } from './semantic-tables';
import { fromFloat32Bytes } from './vector-bytes';

/** Rows read per page by the exact SQLite search (its memory stays bounded by this). */
export const EXACT_PAGE_ROWS = 2048;

/** Ids and scores, best first. */
export type IdScores = { id: number; score: number }[];

/**
 * The length of the user's stored vectors of `query.model`; throws when the query's differs.
 * Undefined when the user has none.
 */
export async function checkStoredDimensions(
  db: Kysely<unknown>,
  query: VectorSearchQuery,
): Promise<number | undefined> {
  const { rows } = await sql<{
    dims: number;
  }>`select embedding_dims as dims from ${sql.table(MEMORIES_TABLE)}
    where app_name = ${query.appName} and user_id = ${query.userId} and embedding_model = ${query.model}
    limit 1`.execute(db);
  const dims = rows[0]?.dims;
  if (dims !== undefined && dims !== null && Number(dims) !== query.vector.length) {
    throw new EmbeddingDimensionMismatchError({
      expected: Number(dims),
      actual: query.vector.length,
      model: query.model,
      context: 'query vector against stored vectors',
    });
  }
  return dims === undefined || dims === null ? undefined : Number(dims);
}

/**
 * Exact search (SQLite, and PostgreSQL without pgvector): the user's float32 vectors of the model
 * read page by page (keyset on id, through the user index), compared in process, the best
 * `limit` kept. O(n·d) per search, one query per page; memory O(page).
 */
export async function exactSearch(
  db: Kysely<unknown>,
  query: VectorSearchQuery,
): Promise<IdScores> {
  const top = new TopK<number>(query.limit);
  const vector = Float32Array.from(query.vector);
  for (let after = -1; ;) {
    const { rows } = await sql<{ id: number | string; embedding: Uint8Array }>`
      select id, embedding from ${sql.table(MEMORIES_TABLE)}
      where app_name = ${query.appName} and user_id = ${query.userId}
        and embedding_model = ${query.model} and id > ${after}
      order by id limit ${EXACT_PAGE_ROWS}`.execute(db);
    for (const row of rows) {
      const similarity = dot(fromFloat32Bytes(row.embedding), vector);
      if (similarity >= query.minSimilarity) top.offer(Number(row.id), similarity);
    }
    if (rows.length < EXACT_PAGE_ROWS) break;
    after = Number(rows[rows.length - 1]!.id);
  }
  return top.result().map(({ item, score }) => ({ id: item, score }));
}

/** FTS5 search (bm25), words quoted so that they are never syntax. */
export async function sqliteWordSearch(
  db: Kysely<unknown>,
  query: WordSearchQuery,
): Promise<IdScores> {
  const match = query.words.map((w) => `"${w}"`).join(' OR ');
  const fts = sql.table(MEMORIES_FTS_TABLE);
  const { rows } = await sql<{ id: number; score: number }>`
    select e.id, -bm25(${fts}) as score
    from ${fts} join ${sql.table(MEMORIES_TABLE)} e on e.id = ${fts}.rowid
    where ${fts} match ${match} and e.app_name = ${query.appName} and e.user_id = ${query.userId}
    order by bm25(${fts}), e.timestamp desc limit ${query.limit}`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), score: Number(r.score) }));
}

/** tsvector search (`ts_rank`); the words hold letters and digits only, so `|` joins them safely. */
export async function postgresWordSearch(
  db: Kysely<unknown>,
  query: WordSearchQuery,
  textSearchConfig: string,
): Promise<IdScores> {
  const { rows } = await sql<{ id: string; score: number }>`
    select e.id, ts_rank(e.search_vector, q) as score
    from ${sql.table(MEMORIES_TABLE)} e, to_tsquery(cast(${textSearchConfig} as regconfig), ${query.words.join(' | ')}) q
    where e.app_name = ${query.appName} and e.user_id = ${query.userId} and e.search_vector @@ q
    order by score desc, e.timestamp desc limit ${query.limit}`.execute(db);
  return rows.map((r) => ({ id: Number(r.id), score: Number(r.score) }));
}
