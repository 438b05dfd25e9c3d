import type {
  MemoryDraft,
  MemoryKind,
  MemoryScope,
  ScoredMemory,
  StoredMemory,
} from './stored-memory';

/** Which memories {@link MemoryVectorStore.list} returns, newest first. */
export interface ListMemoriesQuery extends MemoryScope {
  kind?: MemoryKind | undefined;
  sessionId?: string | undefined;
  /** At most this many (the store may cap it). */
  limit: number;
  /** Skip this many first. Default 0. */
  offset?: number | undefined;
}

/** Which memories {@link MemoryVectorStore.delete} forgets. */
export interface DeleteMemoriesQuery extends MemoryScope {
  /** Only those that came from this session. */
  sessionId?: string | undefined;
  /** Only these ids (of this user). */
  ids?: readonly string[] | undefined;
}

/** A nearest-neighbour search of {@link MemoryVectorStore.searchByVector}. */
export interface VectorSearchQuery extends MemoryScope {
  /** Unit-length query vector. */
  vector: readonly number[];
  /** Only memories embedded by this model are compared. */
  model: string;
  limit: number;
  /** Cosine similarity below this is no match. */
  minSimilarity: number;
}

/** A full-text search of {@link MemoryVectorStore.searchByWords}. */
export interface WordSearchQuery extends MemoryScope {
  /** Distinct lower-cased words (letters and digits only): any of them may match. */
  words: readonly string[];
  limit: number;
}

/**
 * Where `SemanticMemoryService` keeps memories and how it finds them: the seam a third party
 * implements to put memory in another vector store (Qdrant, Chroma, ...), then checks with
 * `semanticMemoryConformance` from `@adk/memory/testing/vitest`.
 *
 * Contract:
 * - every method reads and writes one app's user only; nothing crosses users;
 * - `replaceSession` replaces exactly the `event` memories of one session, atomically when the
 *   store can; facts are never touched by it;
 * - `searchByVector` compares only vectors of `query.model`, best first, and returns none below
 *   `minSimilarity`; a query vector of another length than the stored ones of that model is an
 *   `EmbeddingDimensionMismatchError`;
 * - `searchByWords` treats words as data (never query syntax), best first;
 * - results are copies: changing them changes nothing stored.
 */
export interface MemoryVectorStore {
  /**
   * How this store searches by meaning, for documentation and the UI: `in-memory exact`,
   * `sqlite-vec`, `sqlite exact`, `pgvector`, `postgres exact`, or a third party's name. May be
   * settled only after the first use (a SQL store probes its database).
   */
  readonly searchPath: string;
  /** Replace the `event` memories of `scope`'s session `sessionId` with `drafts`. */
  replaceSession(
    scope: MemoryScope,
    sessionId: string,
    drafts: readonly MemoryDraft[],
  ): Promise<void>;
  /** Store new memories; returns them with their ids, in order. */
  insert(drafts: readonly MemoryDraft[]): Promise<StoredMemory[]>;
  /** Replace stored memories (same id, same user) by these; unknown ids are skipped. */
  update(memories: readonly StoredMemory[]): Promise<void>;
  /** The memories of one user, newest first. */
  list(query: ListMemoriesQuery): Promise<StoredMemory[]>;
  /** Up to `limit` memories of the user not embedded by `model` (or not at all). */
  listStale(scope: MemoryScope, model: string, limit: number): Promise<StoredMemory[]>;
  /** Forget memories; returns how many were forgotten. */
  delete(query: DeleteMemoriesQuery): Promise<number>;
  searchByVector(query: VectorSearchQuery): Promise<ScoredMemory[]>;
  searchByWords(query: WordSearchQuery): Promise<ScoredMemory[]>;
}
