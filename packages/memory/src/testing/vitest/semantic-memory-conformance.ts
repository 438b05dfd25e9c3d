import { randomUUID } from 'node:crypto';

import { EmbeddingDimensionMismatchError } from '@adk/core';
import { memoryServiceConformance } from '@adk/core/testing/vitest';
import { describe, expect, it } from 'vitest';

import type { MemoryVectorStore } from '../../semantic/memory-vector-store';
import { SemanticMemoryService } from '../../semantic/semantic-memory-service';
import { ConceptEmbeddingModel } from '../concept-embedding-model';
import { sessionSaying, textsOf } from './semantic-fixtures';
import { vectorStoreContract } from './vector-store-contract';

/**
 * The semantic memory contract as a vitest suite, for every {@link MemoryVectorStore}: the core
 * memory contract (`memoryServiceConformance`, through `SemanticMemoryService` in hybrid mode),
 * then search by meaning, words and hybrid, thresholds, user isolation, re-embedding on a model
 * change, dimension mismatches and the store's own contract. Embeddings come from
 * `ConceptEmbeddingModel` (deterministic, no network).
 *
 * `makeStore` is called once per test (a store over one shared database is fine: every test uses
 * its own random app name).
 *
 * @example
 * ```ts
 * import { semanticMemoryConformance } from '@adk/memory/testing/vitest';
 * semanticMemoryConformance('QdrantVectorStore', () => new QdrantVectorStore({ url }));
 * ```
 */
export function semanticMemoryConformance(
  label: string,
  makeStore: () => Promise<MemoryVectorStore> | MemoryVectorStore,
): void {
  const service = async (embedder = new ConceptEmbeddingModel()) =>
    new SemanticMemoryService({ store: await makeStore(), embedder });
  memoryServiceConformance(`${label} (semantic service, hybrid)`, () => service());

  describe(`Semantic memory conformance: ${label}`, () => {
    const newApp = () => `app-${randomUUID()}`;
    const remember = async (memory: SemanticMemoryService, app: string, user = 'alice') => {
      await memory.addSessionToMemory(
        sessionSaying(app, user, 's1', [
          'The user is building a billing service',
          'The cat sleeps on the sofa all afternoon',
          'Flight to Lisbon booked for the vacation',
        ]),
      );
    };

    it('finds a memory by meaning when it shares no word with the query', async () => {
      const memory = await service();
      const app = newApp();
      await remember(memory, app);
      const query = { appName: app, userId: 'alice', query: 'my payments project' };
      for (const mode of ['semantic', 'hybrid'] as const) {
        const { memories } = await memory.searchMemory({ ...query, mode });
        expect(textsOf(memories), mode).toEqual(['The user is building a billing service']);
        expect(memories[0]).toMatchObject({ author: 'user', sessionId: 's1' });
      }
      expect((await memory.searchMemory({ ...query, mode: 'words' })).memories).toEqual([]);
    });

    it('scores by cosine similarity, best first, and honours threshold and limit', async () => {
      const memory = await service();
      const app = newApp();
      await memory.addSessionToMemory(
        sessionSaying(app, 'alice', 's1', [
          'billing invoices and payments for the startup',
          'billing code',
          'a quiet walk in the park',
        ]),
      );
      const query = {
        appName: app,
        userId: 'alice',
        query: 'payments invoices startup',
        mode: 'semantic' as const,
      };
      const { memories } = await memory.searchMemory(query);
      expect(textsOf(memories)[0]).toBe('billing invoices and payments for the startup');
      const scores = memories.map((m) => m.score!);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
      expect(scores.every((s) => s >= 0.5 && s <= 1 + 1e-6)).toBe(true);
      expect(textsOf(memories)).not.toContain('a quiet walk in the park');
      const strict = await memory.searchMemory({ ...query, minSimilarity: 0.999 });
      expect(strict.memories).toEqual([]);
      expect(
        (await memory.searchMemory({ ...query, minSimilarity: 0, limit: 1 })).memories,
      ).toHaveLength(1);
    });

    it('hybrid: returns what words and meaning find, an entry found by both first', async () => {
      const memory = await service();
      const app = newApp();
      await memory.addSessionToMemory(
        sessionSaying(app, 'alice', 's1', [
          'Lisbon has great trams',
          'The flight to the airport leaves at nine',
          'Book a flight for the Lisbon vacation',
        ]),
      );
      const { memories } = await memory.searchMemory({
        appName: app,
        userId: 'alice',
        query: 'Lisbon holiday travel',
      });
      const texts = textsOf(memories);
      expect(texts[0]).toBe('Book a flight for the Lisbon vacation');
      expect([...texts].sort()).toEqual(
        [
          'Book a flight for the Lisbon vacation',
          'Lisbon has great trams',
          'The flight to the airport leaves at nine',
        ].sort(),
      );
    });

    it("never returns another user's or another app's memories by meaning", async () => {
      const memory = await service();
      const app = newApp();
      await remember(memory, app, 'alice');
      await remember(memory, app, 'bob');
      await remember(memory, newApp(), 'alice');
      for (const mode of ['semantic', 'hybrid'] as const) {
        const { memories } = await memory.searchMemory({
          appName: app,
          userId: 'alice',
          query: 'payments project',
          mode,
        });
        expect(memories, mode).toHaveLength(1);
      }
      expect(
        (await memory.searchMemory({ appName: app, userId: 'carol', query: 'payments project' }))
          .memories,
      ).toEqual([]);
    });

    it('re-embeds memories of an older model once, before the next search by meaning', async () => {
      const store = await makeStore();
      const app = newApp();
      const old = new SemanticMemoryService({
        store,
        embedder: new ConceptEmbeddingModel({ name: 'old-model' }),
      });
      await remember(old, app);
      const embedder = new ConceptEmbeddingModel({ name: 'new-model' });
      const current = new SemanticMemoryService({ store, embedder });
      const query = {
        appName: app,
        userId: 'alice',
        query: 'payments project',
        mode: 'semantic' as const,
      };
      expect(textsOf((await current.searchMemory(query)).memories)).toEqual([
        'The user is building a billing service',
      ]);
      expect(embedder.embeddedCount).toBe(3 + 1); // three memories, one query
      await current.searchMemory(query);
      expect(embedder.embeddedCount).toBe(3 + 2);
      expect(await current.reembed({ appName: app, userId: 'alice' })).toBe(0);
    });

    it('refuses a query vector of another length than the stored ones with a typed error', async () => {
      const store = await makeStore();
      const app = newApp();
      const short = new SemanticMemoryService({
        store,
        embedder: new ConceptEmbeddingModel({ name: 'same', dimensions: 128 }),
      });
      await remember(short, app);
      const long = new SemanticMemoryService({
        store,
        embedder: new ConceptEmbeddingModel({ name: 'same', dimensions: 256 }),
      });
      const error = await long
        .searchMemory({
          appName: app,
          userId: 'alice',
          query: 'payments project',
          mode: 'semantic',
        })
        .catch((e: unknown) => e);
      expect(EmbeddingDimensionMismatchError.isInstance(error)).toBe(true);
      // Nothing was lost: the memories are still found with the model that made them.
      expect(
        (
          await short.searchMemory({
            appName: app,
            userId: 'alice',
            query: 'payments project',
            mode: 'semantic',
          })
        ).memories,
      ).toHaveLength(1);
    });

    vectorStoreContract(makeStore, newApp);
  });
}
