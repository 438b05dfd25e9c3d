import type { SqlDialect } from '@adk/sql-kit';
import type { Kysely } from 'kysely';

import {
  addVectorColumn,
  ensureDimensionIndex,
  findPgvector,
  type Pgvector,
} from './pgvector-index';
import { hasSqliteVec } from './sqlite-vec-index';

/** The vector index a SQL store uses; undefined: exact search. */
export type VectorIndex =
  { kind: 'sqlite-vec' } | { kind: 'pgvector'; pgvector: Pgvector } | undefined;

/**
 * Which vector index the database offers: sqlite-vec when loaded into the SQLite connection;
 * pgvector when the PostgreSQL database has the `vector` extension (then the
 * `embedding_vector` column is added, and the HNSW index of `dimensions` when given).
 */
export async function probeVectorIndex(
  db: Kysely<unknown>,
  dialect: SqlDialect,
  options: { vectorIndex?: 'auto' | 'exact'; dimensions?: number },
): Promise<VectorIndex> {
  if (options.vectorIndex === 'exact') return undefined;
  if (dialect === 'sqlite') return (await hasSqliteVec(db)) ? { kind: 'sqlite-vec' } : undefined;
  const pgvector = await findPgvector(db);
  if (!pgvector) return undefined;
  await addVectorColumn(db, pgvector);
  if (options.dimensions) await ensureDimensionIndex(db, pgvector, options.dimensions);
  return { kind: 'pgvector', pgvector };
}
