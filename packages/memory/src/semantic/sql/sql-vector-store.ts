import {
  lockKeyForTransaction,
  retryOnUniqueViolation,
  storeTables,
  type AnyKysely,
  type SqlDialect,
} from '@adk/sql-kit';
import type { Kysely } from 'kysely';

import { UnsupportedMemoryDialectError } from '../../errors/unsupported-dialect-error';
import type {
  DeleteMemoriesQuery,
  ListMemoriesQuery,
  MemoryVectorStore,
  VectorSearchQuery,
  WordSearchQuery,
} from '../memory-vector-store';
import type { MemoryDraft, MemoryScope, ScoredMemory, StoredMemory } from '../stored-memory';
import { fromRow, MEMORY_COLUMNS, toRow, type ReadRow } from './memory-rows';
import {
  ensureDimensionIndex,
  PGVECTOR_MAX_INDEXED_DIMENSIONS,
  pgvectorSearch,
  pgVectorValue,
  putPgVectors,
} from './pgvector-index';
import { postgresExactSearch } from './postgres-exact-search';
import { probeVectorIndex, type VectorIndex } from './probe-vector-index';
import {
  checkStoredDimensions,
  exactSearch,
  postgresWordSearch,
  sqliteWordSearch,
  type IdScores,
} from './sql-vector-search';
import { deleteVectors, nearestVectors, putVectors, userKey } from './sqlite-vec-index';
import { MEMORIES_TABLE, semanticTableMigrations, type SemanticDatabase } from './semantic-tables';

/** Options of {@link SqlVectorStore}. */
export interface SqlVectorStoreOptions {
  /** Your Kysely instance: SQLite (better-sqlite3, FTS5 compiled in) or PostgreSQL. */
  db: AnyKysely;
  /** Force the SQL flavour when a custom dialect's adapter is not recognised. */
  dialect?: SqlDialect;
  /**
   * `auto` (default): sqlite-vec when the SQLite connection has it loaded (see
   * `loadSqliteVec`), pgvector when the PostgreSQL database has the `vector` extension
   * (`create extension vector`); exact search otherwise. `exact`: always exact search.
   */
  vectorIndex?: 'auto' | 'exact';
  /**
   * pgvector only: create the HNSW index of this vector length in `migrate()` (ahead of the
   * first insert, which creates the index of each new length otherwise).
   */
  dimensions?: number;
  /** PostgreSQL text-search configuration for word search (default `english`). */
  textSearchConfig?: string;
}

const INSERT_BATCH = 200;
const MAX_ATTEMPTS = 5;

/**
 * A {@link MemoryVectorStore} in SQL through Kysely, on the database you already have. Words:
 * SQLite FTS5 (bm25) or PostgreSQL `tsvector` (GIN). Meaning, by `searchPath`:
 * - `sqlite-vec`: a `vec0` table per vector length, partitioned by user (a search reads only that
 *   user's vectors, brute force in C);
 * - `sqlite exact`: vectors as float32 `blob`s, one user's read page by page and compared in
 *   process;
 * - `postgres exact`: float32 `bytea` plus an int8 copy; one user's int8 copies are scored in
 *   process with a proven error bound, then the float32 vectors of the rows that can still be in
 *   the top k are read and ranked exactly (the same result as comparing every vector);
 * - `pgvector`: a `vector(dimensions)` column with an HNSW index (approximate, sub-linear).
 * The tables are created on first use (`migrate()` to do it ahead).
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3';
 * const database = new Database('memory.db');
 * await loadSqliteVec(database); // optional: false when sqlite-vec is not installed
 * const store = new SqlVectorStore({ db: new Kysely({ dialect: new SqliteDialect({ database }) }) });
 * ```
 */
export class SqlVectorStore implements MemoryVectorStore {
  readonly #db: Kysely<SemanticDatabase>;
  readonly #raw: Kysely<unknown>;
  readonly #dialect: SqlDialect;
  readonly #options: SqlVectorStoreOptions;
  readonly #textSearchConfig: string;
  #index: VectorIndex;
  /** pgvector: the vector lengths whose HNSW index exists. */
  readonly #indexedLengths = new Set<number>();
  readonly #ready: () => Promise<void>;

  constructor(options: SqlVectorStoreOptions) {
    const tables = storeTables(options.db, {
      dialect: options.dialect,
      unsupported: (adapter) => new UnsupportedMemoryDialectError({ adapter }),
      migrations: semanticTableMigrations,
      afterMigrate: async () => {
        this.#index = await probeVectorIndex(this.#raw, this.#dialect, this.#options);
      },
    });
    this.#dialect = tables.dialect;
    this.#ready = tables.migrate;
    this.#db = options.db as Kysely<SemanticDatabase>;
    this.#raw = options.db as Kysely<unknown>;
    this.#options = options;
    this.#textSearchConfig = options.textSearchConfig ?? 'english';
  }

  /** The search path in use; `sqlite exact` or `postgres exact` until the first use settles it. */
  get searchPath(): string {
    return this.#index?.kind ?? `${this.#dialect === 'sqlite' ? 'sqlite' : 'postgres'} exact`;
  }

  /** Create the tables and probe the vector index now. Idempotent. */
  migrate(): Promise<void> {
    return this.#ready();
  }

  async replaceSession(
    scope: MemoryScope,
    sessionId: string,
    drafts: readonly MemoryDraft[],
  ): Promise<void> {
    await this.#ready();
    await this.#ensureLengthIndexes(drafts);
    // Writers replacing the same session take turns; the retry is for writers that take no lock
    // (see `SqlMemoryService.addSessionToMemory`).
    const key = [MEMORIES_TABLE, scope.appName, scope.userId, sessionId].join('\u0000');
    await retryOnUniqueViolation(MAX_ATTEMPTS, () =>
      this.#db.transaction().execute(async (trx) => {
        await lockKeyForTransaction(trx, this.#dialect, key);
        const old = await trx
          .selectFrom(MEMORIES_TABLE)
          .select('id')
          .where('app_name', '=', scope.appName)
          .where('user_id', '=', scope.userId)
          .where('session_id', '=', sessionId)
          .where('kind', '=', 'event')
          .execute();
        await this.#deleteIds(
          trx,
          old.map((r) => Number(r.id)),
        );
        await this.#insert(trx, drafts);
      }),
    );
  }

  async insert(drafts: readonly MemoryDraft[]): Promise<StoredMemory[]> {
    await this.#ready();
    await this.#ensureLengthIndexes(drafts);
    return this.#db.transaction().execute((trx) => this.#insert(trx, drafts));
  }

  async update(memories: readonly StoredMemory[]): Promise<void> {
    await this.#ready();
    const postgres =
      this.#dialect === 'postgres' ? { textSearchConfig: this.#textSearchConfig } : undefined;
    await this.#ensureLengthIndexes(memories);
    await this.#db.transaction().execute(async (trx) => {
      for (const memory of memories) {
        const result = await trx
          .updateTable(MEMORIES_TABLE)
          .set(toRow(memory, postgres))
          .where('id', '=', Number(memory.id))
          .where('app_name', '=', memory.appName)
          .where('user_id', '=', memory.userId)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) continue;
        await this.#putIndexed(trx, [{ ...memory }], true);
      }
    });
  }

  async list(query: ListMemoriesQuery): Promise<StoredMemory[]> {
    await this.#ready();
    let select = this.#db
      .selectFrom(MEMORIES_TABLE)
      .select(MEMORY_COLUMNS)
      .where('app_name', '=', query.appName)
      .where('user_id', '=', query.userId);
    if (query.kind) select = select.where('kind', '=', query.kind);
    if (query.sessionId !== undefined) select = select.where('session_id', '=', query.sessionId);
    const rows = await select
      .orderBy('timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(Math.max(0, Math.floor(query.limit)))
      .offset(Math.max(0, Math.floor(query.offset ?? 0)))
      .execute();
    return rows.map((r) => fromRow(r as ReadRow));
  }

  async listStale(scope: MemoryScope, model: string, limit: number): Promise<StoredMemory[]> {
    await this.#ready();
    const rows = await this.#db
      .selectFrom(MEMORIES_TABLE)
      .select(MEMORY_COLUMNS)
      .where('app_name', '=', scope.appName)
      .where('user_id', '=', scope.userId)
      .where((eb) => eb.or([eb('embedding_model', 'is', null), eb('embedding_model', '!=', model)]))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => fromRow(r as ReadRow));
  }

  async delete(query: DeleteMemoriesQuery): Promise<number> {
    await this.#ready();
    if (query.ids && query.ids.length === 0) return 0;
    return this.#db.transaction().execute(async (trx) => {
      let select = trx
        .selectFrom(MEMORIES_TABLE)
        .select('id')
        .where('app_name', '=', query.appName)
        .where('user_id', '=', query.userId);
      if (query.sessionId !== undefined) select = select.where('session_id', '=', query.sessionId);
      if (query.ids)
        select = select.where('id', 'in', query.ids.map(Number).filter(Number.isSafeInteger));
      const ids = (await select.execute()).map((r) => Number(r.id));
      await this.#deleteIds(trx, ids);
      return ids.length;
    });
  }

  async searchByVector(query: VectorSearchQuery): Promise<ScoredMemory[]> {
    await this.#ready();
    if (query.limit <= 0) return [];
    if ((await checkStoredDimensions(this.#raw, query)) === undefined) return [];
    let hits: IdScores;
    if (this.#index?.kind === 'sqlite-vec') {
      const near = await nearestVectors(this.#raw, {
        userKey: userKey(query.appName, query.userId),
        vector: query.vector,
        k: query.limit,
      });
      hits = near
        .filter((n) => n.similarity >= query.minSimilarity)
        .map((n) => ({ id: n.id, score: n.similarity }));
    } else if (
      this.#index?.kind === 'pgvector' &&
      query.vector.length <= PGVECTOR_MAX_INDEXED_DIMENSIONS
    )
      hits = await pgvectorSearch(this.#raw, this.#index.pgvector, query);
    else if (this.#dialect === 'postgres') hits = await postgresExactSearch(this.#raw, query);
    else hits = await exactSearch(this.#raw, query);
    // The vec index holds the current vectors only; the model check keeps any stale one out.
    return (await this.#hydrate(hits)).filter((h) => h.memory.embeddingModel === query.model);
  }

  async searchByWords(query: WordSearchQuery): Promise<ScoredMemory[]> {
    await this.#ready();
    if (query.words.length === 0 || query.limit <= 0) return [];
    const hits =
      this.#dialect === 'postgres'
        ? await postgresWordSearch(this.#raw, query, this.#textSearchConfig)
        : await sqliteWordSearch(this.#raw, query);
    return this.#hydrate(hits);
  }

  async #insert(
    trx: Kysely<SemanticDatabase>,
    drafts: readonly MemoryDraft[],
  ): Promise<StoredMemory[]> {
    const postgres =
      this.#dialect === 'postgres' ? { textSearchConfig: this.#textSearchConfig } : undefined;
    const pgvector = this.#index?.kind === 'pgvector' ? this.#index.pgvector : undefined;
    const stored: StoredMemory[] = [];
    for (let start = 0; start < drafts.length; start += INSERT_BATCH) {
      const batch = drafts.slice(start, start + INSERT_BATCH);
      const rows = await trx
        .insertInto(MEMORIES_TABLE)
        .values(
          batch.map((d) => ({
            ...toRow(d, postgres),
            ...(pgvector && d.embedding
              ? { embedding_vector: pgVectorValue(pgvector, d.embedding) }
              : {}),
          })) as never,
        )
        .returning('id')
        .execute();
      stored.push(
        ...batch.map((draft, i) => ({ ...structuredClone(draft), id: String(rows[i]!.id) })),
      );
    }
    // The sqlite-vec index is a table of its own; a pgvector column was written with the row.
    if (!pgvector) await this.#putIndexed(trx, stored, false);
    return stored;
  }

  /** Keeps the vector index (sqlite-vec table or pgvector column) in step with the rows. */
  async #putIndexed(
    trx: Kysely<SemanticDatabase>,
    memories: readonly StoredMemory[],
    replace: boolean,
  ): Promise<void> {
    const embedded = memories.filter((m) => m.embedding);
    if (embedded.length === 0) return;
    if (this.#index?.kind === 'sqlite-vec') {
      await putVectors(
        trx as Kysely<unknown>,
        embedded.map((m) => ({
          id: Number(m.id),
          userKey: userKey(m.appName, m.userId),
          vector: m.embedding!,
        })),
        replace,
      );
    } else if (this.#index?.kind === 'pgvector') {
      await putPgVectors(
        trx as Kysely<unknown>,
        this.#index.pgvector,
        embedded.map((m) => ({ id: Number(m.id), vector: m.embedding! })),
      );
    }
  }

  async #deleteIds(trx: Kysely<SemanticDatabase>, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    if (this.#index?.kind === 'sqlite-vec') await deleteVectors(trx as Kysely<unknown>, ids);
    for (let start = 0; start < ids.length; start += 500) {
      await trx
        .deleteFrom(MEMORIES_TABLE)
        .where('id', 'in', ids.slice(start, start + 500))
        .execute();
    }
  }

  /**
   * pgvector: creates the HNSW index of each vector length not seen yet, before the writing
   * transaction (a concurrent creation of the same index is no failure).
   */
  async #ensureLengthIndexes(
    memories: readonly { embedding?: readonly number[] }[],
  ): Promise<void> {
    if (this.#index?.kind !== 'pgvector') return;
    for (const m of memories) {
      const length = m.embedding?.length;
      if (length === undefined || this.#indexedLengths.has(length)) continue;
      try {
        await ensureDimensionIndex(this.#raw, this.#index.pgvector, length);
      } catch (error) {
        if (!isDuplicateRelation(error)) throw error;
      }
      this.#indexedLengths.add(length);
    }
  }

  async #hydrate(hits: IdScores): Promise<ScoredMemory[]> {
    if (hits.length === 0) return [];
    const rows = await this.#db
      .selectFrom(MEMORIES_TABLE)
      .select(MEMORY_COLUMNS)
      .where(
        'id',
        'in',
        hits.map((h) => h.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [Number(r.id), fromRow(r as ReadRow)]));
    return hits.flatMap((h) => {
      const memory = byId.get(h.id);
      return memory ? [{ memory, score: h.score }] : [];
    });
  }
}

/** PostgreSQL's answer when two sessions create the same index at once. */
function isDuplicateRelation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '42P07' || code === '23505';
}
