import { openPgvectorDatabase } from '@adk/test-databases';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { conceptDraft64 } from '../../../test/fixtures/vectors';
import { conceptVector } from '../../testing';
import { semanticMemoryConformance } from '../../testing/vitest';
import type { MemoryDraft } from '../stored-memory';
import { SqlVectorStore } from './sql-vector-store';

// A database of its own holds the extension (created there when the server has pgvector), so the
// other tests' database keeps testing the exact path.
const { database, skip } = await openPgvectorDatabase('semantic_pgvector');
afterAll(() => database?.close());

const draft = (userId: string, text: string, i: number) => conceptDraft64('pgv', userId, text, i);

describe.skipIf(skip !== undefined)('pgvector', () => {
  it('is used when the database has the extension, off search_path, with an HNSW index per length', async () => {
    const store = new SqlVectorStore({ db: database!.db, dimensions: 32 });
    await store.migrate();
    expect(store.searchPath).toBe('pgvector');
    await store.insert([draft('alice', 'The user is building a billing service', 0)]);
    const { rows } = await sql<{ name: string; definition: string }>`
      select indexname as name, indexdef as definition from pg_indexes
      where schemaname = current_schema() and indexname like 'adk_semantic_memories_hnsw_%'
      order by indexname`.execute(database!.db);
    expect(rows.map((r) => r.name)).toEqual([
      'adk_semantic_memories_hnsw_32',
      'adk_semantic_memories_hnsw_64',
    ]);
    expect(rows[1]!.definition).toMatch(/USING hnsw .*vector\(64\).*WHERE \(embedding_dims = 64\)/);
    const exact = new SqlVectorStore({ db: database!.db, vectorIndex: 'exact' });
    await exact.migrate();
    expect(exact.searchPath).toBe('postgres exact');
  });

  it("finds one user's best memories among many nearer ones of another user", async () => {
    const store = new SqlVectorStore({ db: database!.db });
    const near = 'The user is building a billing service';
    const others: MemoryDraft[] = [];
    for (let i = 0; i < 400; i++) others.push(draft('bob', `${near} number ${i}`, i));
    await store.insert(others);
    await store.insert([
      draft('carol', 'Carol is building a billing service', 1),
      draft('carol', 'Carol plays the guitar', 2),
    ]);
    const hits = await store.searchByVector({
      appName: 'pgv',
      userId: 'carol',
      vector: conceptVector('my payments project', 64),
      model: 'concept-64',
      limit: 2,
      minSimilarity: -1,
    });
    expect(hits.map((h) => h.memory.text)).toEqual([
      'Carol is building a billing service',
      'Carol plays the guitar',
    ]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });
});

if (skip === undefined) {
  semanticMemoryConformance('SqlVectorStore (PostgreSQL, pgvector)', () => {
    const store = new SqlVectorStore({ db: database!.db });
    return store;
  });
}
