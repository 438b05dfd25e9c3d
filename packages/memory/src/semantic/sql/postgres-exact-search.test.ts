import { runMigrations } from '@adk/sql-kit';
import { openTestDatabases, postgresDatabase } from '@adk/test-databases';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { seeded } from '../../../test/fixtures/vectors';
import { conceptVector } from '../../testing';
import type { MemoryDraft, StoredMemory } from '../stored-memory';
import { dot } from '../vector-math';
import { semanticTableMigrations } from './semantic-tables';
import { SqlVectorStore } from './sql-vector-store';
import { toFloat32Bytes } from './vector-bytes';
import { toVectorSketch } from './vector-sketch';

const { skipPostgres, close } = await openTestDatabases('semantic_sketch');
afterAll(close);

function unitVector(random: () => number, dims: number): number[] {
  const v = Array.from({ length: dims }, () => random() + random() + random() - 1.5);
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / norm);
}

function draft(userId: string, i: number, embedding: number[], text = `note ${i}`): MemoryDraft {
  return {
    ...{ appName: 'app', userId, kind: 'fact', text, timestamp: 1_700_000_000_000 + i },
    content: { role: 'user', parts: [{ text }] },
    embedding,
    embeddingModel: 'm',
  };
}

/** Brute force over the stored float32 values: best first, ties by insertion (id) order. */
function bruteForce(
  stored: { id: string; embedding: readonly number[] }[],
  vector: readonly number[],
  limit: number,
  minSimilarity: number,
): { id: string; score: number }[] {
  const query = Float32Array.from(vector);
  return stored
    .map((m, order) => ({ id: m.id, order, score: dot(Float32Array.from(m.embedding), query) }))
    .filter((h) => h.score >= minSimilarity)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map(({ id, score }) => ({ id, score }));
}

/** Every query's hits for user `u` are brute force's over `stored`, in order, with its scores. */
async function expectExact(
  store: SqlVectorStore,
  stored: readonly StoredMemory[],
  queries: { vector: number[]; limit: number; minSimilarity: number }[],
): Promise<void> {
  const embedded = stored.map((m) => ({ id: m.id, embedding: m.embedding! }));
  for (const q of queries) {
    const hits = await store.searchByVector({ appName: 'app', userId: 'u', model: 'm', ...q });
    const expected = bruteForce(embedded, q.vector, q.limit, q.minSimilarity);
    expect(hits.map((h) => h.memory.id)).toEqual(expected.map((e) => e.id));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 9));
  }
}

/** Run `use` on a database of its own (`label`), closed afterwards. */
async function onDatabase(label: string, use: (db: Kysely<unknown>) => Promise<void>) {
  const database = await postgresDatabase(label);
  try {
    await use(database.db);
  } finally {
    await database.close();
  }
}

describe.skipIf(skipPostgres !== undefined)('PostgreSQL exact search in two stages', () => {
  it('equals brute force on a seeded random set (with duplicate vectors and other users)', () =>
    onDatabase('semantic_sketch_random', async (db) => {
      const store = new SqlVectorStore({ db });
      const random = seeded(2026);
      const vectors = Array.from({ length: 2_500 }, () => unitVector(random, 256));
      // Exact ties: the same vector stored several times must come back in insertion order.
      for (let i = 0; i < 40; i++) vectors.push(vectors[i * 7]!);
      const stored = await store.insert(vectors.map((v, i) => draft('u', i, v)));
      await store.insert(vectors.slice(0, 500).map((v, i) => draft('other', i, v)));
      const queries = Array.from({ length: 24 }, (_, i) => ({
        vector: i % 4 === 0 ? vectors[i * 13]! : unitVector(random, 256),
        limit: [1, 10, 50][i % 3]!,
        minSimilarity: i % 2 === 0 ? -1 : 0.05,
      }));
      await expectExact(store, stored, queries);
    }));

  it("equals brute force on the bench's data (768-dimension concept vectors, top 10)", () =>
    onDatabase('semantic_sketch_bench', async (db) => {
      const store = new SqlVectorStore({ db });
      const topics = ['billing invoices', 'flight vacation', 'dog puppy', 'guitar concert'];
      const drafts = Array.from({ length: 3_000 }, (_, i) => {
        const text = `note ${i} about ${topics[i % topics.length]} and shelf ${i % 997}`;
        return draft('u', i, conceptVector(text, 768), text);
      });
      const stored = await store.insert(drafts);
      const queries = Array.from({ length: 12 }, (_, s) => ({
        vector: conceptVector(`my ${topics[s % topics.length]} plans ${s}`, 768),
        limit: 10,
        minSimilarity: s % 3 === 0 ? -1 : 0.3,
      }));
      await expectExact(store, stored, queries);
    }));

  it('backfills the int8 copy of rows stored before it, and searches them exactly meanwhile', () =>
    onDatabase('semantic_sketch_backfill', async (db) => {
      const all = semanticTableMigrations('postgres');
      const before = Object.fromEntries(
        Object.entries(all.migrations).filter(([name]) => name < '0003'),
      );
      await runMigrations(db, { ...all, migrations: before });
      const random = seeded(7);
      const vectors = Array.from({ length: 1_200 }, () => unitVector(random, 32));
      for (let i = 0; i < vectors.length; i++) await insertOld(db, i, vectors[i]!);
      const store = new SqlVectorStore({ db });
      await store.migrate();
      const { rows } = await sql<{ embedding: Uint8Array; sketch: Uint8Array | null }>`
        select embedding, embedding_sketch as sketch from adk_semantic_memories order by id`.execute(
        db,
      );
      expect(rows).toHaveLength(vectors.length);
      rows.forEach((r, i) => {
        expect(new Uint8Array(r.embedding)).toEqual(toFloat32Bytes(vectors[i]!));
        expect(r.sketch && new Uint8Array(r.sketch)).toEqual(toVectorSketch(vectors[i]!));
      });
      const stored = (await store.list({ appName: 'app', userId: 'u', limit: 2_000 })).reverse();
      const queries = [0, 1, 2].map(() => ({
        vector: unitVector(random, 32),
        limit: 10,
        minSimilarity: -1,
      }));
      await expectExact(store, stored, queries);
      // A row without its copy (written by an older version during a rolling upgrade) still counts.
      await sql`update adk_semantic_memories set embedding_sketch = null where id % 3 = 0`.execute(
        db,
      );
      await expectExact(store, stored, queries);
    }));
});

/** A row as the schema before migration 0003 held it (float32 bytes, no int8 copy). */
async function insertOld(db: Kysely<unknown>, i: number, vector: number[]): Promise<void> {
  await sql`insert into adk_semantic_memories (app_name, user_id, kind, timestamp, content,
      search_text, embedding, embedding_model, embedding_dims, search_vector)
    values ('app', 'u', 'fact', ${1_700_000_000_000 + i},
      ${JSON.stringify({ role: 'user', parts: [{ text: `note ${i}` }] })}, ${`note ${i}`},
      ${toFloat32Bytes(vector)}, 'm', ${vector.length}, to_tsvector('x'))`.execute(db);
}
