import { EmbeddingDimensionMismatchError } from '@adk/core';

import { wordsOf } from '../internal/memory-text';
import type {
  DeleteMemoriesQuery,
  ListMemoriesQuery,
  MemoryVectorStore,
  VectorSearchQuery,
  WordSearchQuery,
} from './memory-vector-store';
import type { MemoryDraft, MemoryScope, ScoredMemory, StoredMemory } from './stored-memory';
import { dot, TopK } from './vector-math';

interface Held {
  memory: StoredMemory;
  words: Set<string>;
}

/**
 * A {@link MemoryVectorStore} in process memory: exact search (every vector of the user compared,
 * O(n·d) per search, no index), words matched as `InMemoryMemoryService` matches them. For tests,
 * development and small single-process apps.
 */
export class InMemoryVectorStore implements MemoryVectorStore {
  readonly searchPath = 'in-memory exact';
  /** app+user key -> id -> memory. */
  readonly #users = new Map<string, Map<string, Held>>();
  #nextId = 1;

  async replaceSession(
    scope: MemoryScope,
    sessionId: string,
    drafts: readonly MemoryDraft[],
  ): Promise<void> {
    const held = this.#user(scope, true)!;
    for (const [id, { memory }] of held)
      if (memory.kind === 'event' && memory.sessionId === sessionId) held.delete(id);
    await this.insert(drafts);
  }

  async insert(drafts: readonly MemoryDraft[]): Promise<StoredMemory[]> {
    return drafts.map((draft) => {
      const memory: StoredMemory = copy({ ...draft, id: String(this.#nextId++) });
      this.#user(draft, true)!.set(memory.id, { memory, words: new Set(wordsOf(memory.text)) });
      return copy(memory);
    });
  }

  async update(memories: readonly StoredMemory[]): Promise<void> {
    for (const memory of memories) {
      const held = this.#user(memory, false);
      if (!held?.has(memory.id)) continue;
      held.set(memory.id, {
        memory: copy(memory),
        words: new Set(wordsOf(memory.text)),
      });
    }
  }

  async list(query: ListMemoriesQuery): Promise<StoredMemory[]> {
    const offset = query.offset ?? 0;
    return [...(this.#user(query, false)?.values() ?? [])]
      .map((h) => h.memory)
      .filter(
        (m) =>
          (query.kind === undefined || m.kind === query.kind) &&
          (query.sessionId === undefined || m.sessionId === query.sessionId),
      )
      .sort((a, b) => b.timestamp - a.timestamp || Number(b.id) - Number(a.id))
      .slice(offset, offset + query.limit)
      .map((m) => copy(m));
  }

  async listStale(scope: MemoryScope, model: string, limit: number): Promise<StoredMemory[]> {
    const stale: StoredMemory[] = [];
    for (const { memory } of this.#user(scope, false)?.values() ?? []) {
      if (stale.length >= limit) break;
      if (memory.embeddingModel !== model || !memory.embedding) stale.push(copy(memory));
    }
    return stale;
  }

  async delete(query: DeleteMemoriesQuery): Promise<number> {
    const held = this.#user(query, false);
    if (!held) return 0;
    const ids = query.ids ? new Set(query.ids) : undefined;
    let deleted = 0;
    for (const [id, { memory }] of held) {
      if (query.sessionId !== undefined && memory.sessionId !== query.sessionId) continue;
      if (ids && !ids.has(id)) continue;
      held.delete(id);
      deleted++;
    }
    return deleted;
  }

  async searchByVector(query: VectorSearchQuery): Promise<ScoredMemory[]> {
    const top = new TopK<StoredMemory>(query.limit);
    for (const { memory } of this.#user(query, false)?.values() ?? []) {
      const { embedding } = memory;
      if (!embedding || memory.embeddingModel !== query.model) continue;
      if (embedding.length !== query.vector.length) {
        throw new EmbeddingDimensionMismatchError({
          expected: embedding.length,
          actual: query.vector.length,
          model: query.model,
          context: 'query vector against stored vectors',
        });
      }
      const similarity = dot(embedding, query.vector);
      if (similarity >= query.minSimilarity) top.offer(memory, similarity);
    }
    return top.result().map(({ item, score }) => ({ memory: copy(item), score }));
  }

  async searchByWords(query: WordSearchQuery): Promise<ScoredMemory[]> {
    const top = new TopK<StoredMemory>(query.limit);
    for (const { memory, words } of this.#user(query, false)?.values() ?? []) {
      const shared = query.words.filter((w) => words.has(w)).length;
      // Ties: the most recent first, as InMemoryMemoryService orders them.
      if (shared > 0) top.offer(memory, shared + memory.timestamp / 1e16);
    }
    return top
      .result()
      .map(({ item, score }) => ({ memory: copy(item), score: Math.floor(score) }));
  }

  #user(scope: MemoryScope, create: boolean): Map<string, Held> | undefined {
    const key = JSON.stringify([scope.appName, scope.userId]);
    let held = this.#users.get(key);
    if (!held && create) {
      held = new Map();
      this.#users.set(key, held);
    }
    return held;
  }
}

/** A copy that shares nothing mutable with `memory` (cheaper than structuredClone for vectors). */
function copy(memory: StoredMemory): StoredMemory {
  return {
    ...memory,
    content: structuredClone(memory.content),
    ...(memory.embedding ? { embedding: memory.embedding.slice() } : {}),
  };
}
