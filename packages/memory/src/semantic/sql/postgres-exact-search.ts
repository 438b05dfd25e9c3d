import { sql, type Kysely } from 'kysely';

import type { VectorSearchQuery } from '../memory-vector-store';
import { dot, TopK } from '../vector-math';
import { MEMORIES_TABLE } from './semantic-tables';
import type { IdScores } from './sql-vector-search';
import { fromFloat32Bytes } from './vector-bytes';
import { scoreSketch } from './vector-sketch';

/** Sketch rows read per query (about 0.8 KB each at 768 dimensions: ~13 MB per page). */
export const SKETCH_PAGE_ROWS = 16_384;
/** Full vectors fetched per query in the exact stage. */
const EXACT_FETCH_ROWS = 1_000;
/** Slack for the float64 rounding of the two dot products (far above it, far below any gap). */
const ROUNDING_SLACK = 1e-6;

/**
 * Exact search on PostgreSQL without pgvector, in two stages. First the user's int8 sketches
 * (a quarter of the float32 bytes) are scored in process, each score with a proven error bound
 * (see `vector-sketch.ts`); the k-th best lower bound is a floor under the exact k-th score, so
 * only rows whose upper bound reaches it can be in the top k. Then those rows' float32 vectors
 * are read and ranked exactly, in id order as the one-stage search did: the result is the
 * exact top k, ties included. Rows without a sketch (written by an older version) are always
 * candidates.
 */
export async function postgresExactSearch(
  db: Kysely<unknown>,
  query: VectorSearchQuery,
): Promise<IdScores> {
  const vector = Float32Array.from(query.vector);
  const queryNorm = Math.sqrt(dot(vector, vector));
  const ids: number[] = [];
  const uppers: number[] = [];
  const floor = new TopK<number>(query.limit);
  for (let after = -1; ;) {
    const { rows } = await sql<{ id: number | string; sketch: Uint8Array | null }>`
      select id, embedding_sketch as sketch from ${sql.table(MEMORIES_TABLE)}
      where app_name = ${query.appName} and user_id = ${query.userId}
        and embedding_model = ${query.model} and id > ${after}
      order by id limit ${SKETCH_PAGE_ROWS}`.execute(db);
    for (const row of rows) {
      const score = row.sketch ? scoreSketch(row.sketch, vector, queryNorm) : undefined;
      const id = Number(row.id);
      if (!score) {
        ids.push(id);
        uppers.push(Number.POSITIVE_INFINITY);
        continue;
      }
      const upper = score.estimate + score.bound + ROUNDING_SLACK;
      if (upper < query.minSimilarity) continue;
      ids.push(id);
      uppers.push(upper);
      const lower = score.estimate - score.bound - ROUNDING_SLACK;
      if (floor.accepts(lower)) floor.offer(id, lower);
    }
    if (rows.length < SKETCH_PAGE_ROWS) break;
    after = Number(rows[rows.length - 1]!.id);
  }
  const lowest = floor.result();
  const threshold = lowest.length === query.limit ? lowest[lowest.length - 1]!.score : -Infinity;
  const candidates = ids.filter((_, i) => uppers[i]! >= threshold);
  return rankExactly(db, query, vector, candidates);
}

/** The exact top k of `candidates` (ascending ids), compared in id order. */
async function rankExactly(
  db: Kysely<unknown>,
  query: VectorSearchQuery,
  vector: Float32Array,
  candidates: readonly number[],
): Promise<IdScores> {
  const top = new TopK<number>(query.limit);
  for (let start = 0; start < candidates.length; start += EXACT_FETCH_ROWS) {
    const chunk = candidates.slice(start, start + EXACT_FETCH_ROWS);
    const { rows } = await sql<{ id: number | string; embedding: Uint8Array }>`
      select id, embedding from ${sql.table(MEMORIES_TABLE)}
      where id in (${sql.join(chunk)}) and embedding_model = ${query.model}
      order by id`.execute(db);
    for (const row of rows) {
      const similarity = dot(fromFloat32Bytes(row.embedding), vector);
      if (similarity >= query.minSimilarity) top.offer(Number(row.id), similarity);
    }
  }
  return top.result().map(({ item, score }) => ({ id: item, score }));
}
