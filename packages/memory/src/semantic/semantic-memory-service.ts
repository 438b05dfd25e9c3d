import {
  validateDeleteMemoriesRequest,
  type DeleteMemoriesRequest,
  type DeleteMemoriesResponse,
  type EmbeddingModel,
  type MemoryEntry,
  type MemoryService,
  type SearchMemoryResponse,
  type Session,
} from '@adk/core';

import { queryWords, searchLimit, sessionToRecords } from '../internal/memory-text';
import { embedTexts } from './embed-texts';
import type { MemoryVectorStore } from './memory-vector-store';
import { reciprocalRankFusion } from './rank-fusion';
import type { MemorySearchMode, SemanticSearchRequest } from './semantic-search-request';
import type {
  MemoryDraft,
  MemoryKind,
  MemoryScope,
  ScoredMemory,
  StoredMemory,
} from './stored-memory';

/** A request of {@link SemanticMemoryService.listMemories}. */
export interface ListMemoriesRequest extends MemoryScope {
  kind?: MemoryKind | undefined;
  /** Default 50, at most 1,000. */
  limit?: number | undefined;
  offset?: number | undefined;
}

/** A fact given to {@link SemanticMemoryService.addFacts}. */
export interface FactInput {
  text: string;
  /** The session it was learnt in. */
  sessionId?: string | undefined;
  /** Default `memory`. */
  author?: string | undefined;
  /** Default now. */
  timestamp?: number | undefined;
}

/** Options of {@link SemanticMemoryService}. */
export interface SemanticMemoryServiceOptions {
  /** Where memories live: `InMemoryVectorStore`, `SqlVectorStore`, or your own. */
  store: MemoryVectorStore;
  /** Embeds what is stored (`retrieval_document`) and what is searched (`retrieval_query`). */
  embedder: EmbeddingModel;
  /** Default search mode. Default `hybrid`. */
  mode?: MemorySearchMode;
  /**
   * Cosine similarity a memory needs to match by meaning. Default 0.5. Depends on the model:
   * unrelated texts score near 0 with some models and near 0.5 with others; measure yours.
   */
  minSimilarity?: number;
  /** Candidates taken from each list before fusing (hybrid). Default `max(4 × limit, 20)`. */
  candidates?: number;
}

const REEMBED_BATCH = 256;
/** Users whose memories are known to be embedded by the current model (bounded). */
const CHECKED_USERS_CAP = 10_000;

/**
 * Long-term memory that finds meaning, not only words: each remembered event (and each extracted
 * fact) is stored with its embedding and the embedding model's name, scoped by app and user.
 * `searchMemory` searches by meaning, by words or both (hybrid, the default: the store's
 * full-text ranks and the vector ranks fused by reciprocal rank fusion), with a similarity
 * threshold and a limit (default 10). `load_memory`, `preload_memory` and the ingestion plugin
 * use it unchanged, since it is a `MemoryService`.
 *
 * When the embedding model changes (another name), a user's memories embedded by the old one are
 * re-embedded before that user's next search by meaning (or all at once with `reembed`).
 *
 * @example
 * ```ts
 * const memory = new SemanticMemoryService({
 *   store: new SqlVectorStore({ db }), // SQLite or PostgreSQL, your Kysely instance
 *   embedder: createGemini().embeddingModel('gemini-embedding-001', { dimensions: 768 }),
 * });
 * await memory.addSessionToMemory(session);
 * await memory.searchMemory({ appName, userId, query: 'my payments project' });
 * ```
 */
export class SemanticMemoryService implements MemoryService {
  readonly store: MemoryVectorStore;
  readonly embedder: EmbeddingModel;
  readonly #mode: MemorySearchMode;
  readonly #minSimilarity: number;
  readonly #candidates: number | undefined;
  readonly #checked = new Set<string>();

  constructor(options: SemanticMemoryServiceOptions) {
    this.store = options.store;
    this.embedder = options.embedder;
    this.#mode = options.mode ?? 'hybrid';
    this.#minSimilarity = options.minSimilarity ?? 0.5;
    this.#candidates = options.candidates;
  }

  /** Replace what is remembered of the session by its current events (embedded in one batch). */
  async addSessionToMemory(session: Session): Promise<void> {
    const records = sessionToRecords(session);
    const embeddings = await embedTexts(
      this.embedder,
      records.map((r) => r.text),
      'retrieval_document',
    );
    const drafts: MemoryDraft[] = records.map((record, i) => ({
      appName: session.appName,
      userId: session.userId,
      kind: 'event',
      sessionId: session.id,
      eventId: record.eventId,
      text: record.text,
      content: record.entry.content,
      author: record.entry.author,
      timestamp: record.entry.timestamp ?? Date.now(),
      embedding: embeddings[i],
      embeddingModel: this.embedder.name,
    }));
    await this.store.replaceSession(session, session.id, drafts);
  }

  /**
   * Search one user's memories. `mode` `words` matches any word of the query; `semantic` returns
   * memories whose similarity reaches the threshold, most similar first (`score`: the cosine
   * similarity); `hybrid` returns both, fused (`score`: the fused rank score).
   */
  async searchMemory(request: SemanticSearchRequest): Promise<SearchMemoryResponse> {
    const limit = searchLimit(request.limit);
    const words = queryWords(request.query);
    if (words.length === 0 || limit === 0) return { memories: [] };
    const mode = request.mode ?? this.#mode;
    const candidates = mode === 'hybrid' ? (this.#candidates ?? Math.max(4 * limit, 20)) : limit;
    const scope = { appName: request.appName, userId: request.userId };
    const [byWords, byMeaning] = await Promise.all([
      mode === 'semantic' ? [] : this.store.searchByWords({ ...scope, words, limit: candidates }),
      mode === 'words' ? [] : this.#searchByMeaning(scope, request, candidates),
    ]);
    if (mode !== 'hybrid') {
      return { memories: (mode === 'words' ? byWords : byMeaning).slice(0, limit).map(toEntry) };
    }
    const fused = reciprocalRankFusion([byWords, byMeaning], (hit) => hit.memory.id);
    return {
      memories: fused
        .slice(0, limit)
        .map(({ item, score }) => toEntry({ memory: item.memory, score })),
    };
  }

  /** Forget every memory of the user in the app, or only those of `sessionId`. */
  async deleteMemories(request: DeleteMemoriesRequest): Promise<DeleteMemoriesResponse> {
    validateDeleteMemoriesRequest(request);
    return { deletedCount: await this.store.delete(request) };
  }

  /**
   * The memories of one user, newest first (events and facts; `kind` to choose), for a memory
   * page or an export. `limit` defaults to 50, at most 1,000.
   */
  async listMemories(query: ListMemoriesRequest): Promise<StoredMemory[]> {
    return this.store.list({ ...query, limit: Math.min(1000, Math.max(0, query.limit ?? 50)) });
  }

  /** Remember facts about a user (embedded in one batch); returns them with their ids. */
  async addFacts(scope: MemoryScope, facts: readonly FactInput[]): Promise<StoredMemory[]> {
    const vectors = await embedTexts(
      this.embedder,
      facts.map((f) => f.text),
      'retrieval_document',
    );
    return this.store.insert(
      facts.map((fact, i) => ({
        ...scope,
        kind: 'fact' as const,
        sessionId: fact.sessionId,
        text: fact.text,
        content: { role: 'user', parts: [{ text: fact.text }] },
        author: fact.author ?? 'memory',
        timestamp: fact.timestamp ?? Date.now(),
        embedding: vectors[i],
        embeddingModel: this.embedder.name,
      })),
    );
  }

  /**
   * Change the text of one stored memory of the user (re-embedded). Returns the memory as now
   * stored, or `undefined` when the user has no memory of that id.
   */
  async updateMemory(
    scope: MemoryScope,
    id: string,
    text: string,
    sessionId?: string,
  ): Promise<StoredMemory | undefined> {
    const current = await this.#find(scope, id);
    if (!current) return undefined;
    const [vector] = await embedTexts(this.embedder, [text], 'retrieval_document');
    const updated: StoredMemory = {
      ...current,
      text,
      content: { ...current.content, parts: [{ text }] },
      timestamp: Date.now(),
      embedding: vector,
      embeddingModel: this.embedder.name,
      ...(sessionId !== undefined ? { sessionId } : {}),
    };
    await this.store.update([updated]);
    return updated;
  }

  /** Forget memories of the user by id; returns how many were forgotten. */
  async deleteMemoriesById(scope: MemoryScope, ids: readonly string[]): Promise<number> {
    return ids.length === 0 ? 0 : this.store.delete({ ...scope, ids });
  }

  async #find(scope: MemoryScope, id: string): Promise<StoredMemory | undefined> {
    // Facts are few per user; events are found by paging through the user's memories.
    for (let offset = 0; ; offset += 1000) {
      const page = await this.store.list({ ...scope, limit: 1000, offset });
      const found = page.find((m) => m.id === id);
      if (found || page.length < 1000) return found;
    }
  }

  /**
   * Re-embed every memory of the user not embedded by the current model. Returns how many were.
   * Searches do it for their user on their own; call this to do it ahead of time.
   */
  async reembed(scope: MemoryScope, options: { signal?: AbortSignal } = {}): Promise<number> {
    let count = 0;
    for (;;) {
      options.signal?.throwIfAborted();
      const stale = await this.store.listStale(scope, this.embedder.name, REEMBED_BATCH);
      if (stale.length === 0) break;
      const vectors = await embedTexts(
        this.embedder,
        stale.map((m) => m.text),
        'retrieval_document',
      );
      await this.store.update(
        stale.map((memory, i) => ({
          ...memory,
          embedding: vectors[i],
          embeddingModel: this.embedder.name,
        })),
      );
      count += stale.length;
    }
    this.#markChecked(scope);
    return count;
  }

  async #searchByMeaning(
    scope: MemoryScope,
    request: SemanticSearchRequest,
    limit: number,
  ): Promise<ScoredMemory[]> {
    if (!this.#checked.has(checkKey(scope, this.embedder.name))) await this.reembed(scope);
    const [vector] = await embedTexts(this.embedder, [request.query], 'retrieval_query');
    return this.store.searchByVector({
      ...scope,
      vector: vector!,
      model: this.embedder.name,
      limit,
      minSimilarity: request.minSimilarity ?? this.#minSimilarity,
    });
  }

  #markChecked(scope: MemoryScope): void {
    if (this.#checked.size >= CHECKED_USERS_CAP) this.#checked.clear();
    this.#checked.add(checkKey(scope, this.embedder.name));
  }
}

function checkKey(scope: MemoryScope, model: string): string {
  return JSON.stringify([scope.appName, scope.userId, model]);
}

function toEntry({ memory, score }: ScoredMemory): MemoryEntry {
  return {
    content: memory.content,
    ...(memory.author !== undefined ? { author: memory.author } : {}),
    timestamp: memory.timestamp,
    ...(memory.sessionId !== undefined ? { sessionId: memory.sessionId } : {}),
    score,
  };
}
