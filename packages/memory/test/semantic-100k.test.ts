import { openTestDatabases, temporaryDirectory } from '@adk/test-databases';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import {
  InMemoryVectorStore,
  loadSqliteVec,
  SemanticMemoryService,
  SqlVectorStore,
  type MemoryVectorStore,
} from '../src';
import { ConceptEmbeddingModel } from '../src/testing';
import { conceptDraft64 } from './fixtures/vectors';

const ENTRIES = 100_000;
const NEEDLE = 'The user is building a billing service';

const { sqlite, postgres, skipPostgres, close } = await openTestDatabases('semantic100k');
const directory = temporaryDirectory('adk-semantic-100k-');
const vecDatabase = new Database(directory.file('vec.db'));
await loadSqliteVec(vecDatabase);
const vecDb = new Kysely({ dialect: new SqliteDialect({ database: vecDatabase }) });
afterAll(async () => {
  await vecDb.destroy();
  directory.remove();
  await close();
});

// Made once for the four stores, which set appName. (the vectors are a fair share of the work).
const ALICE = Array.from({ length: ENTRIES }, (_, i) =>
  conceptDraft64('', 'alice', i === 61_803 ? NEEDLE : `note ${i} on shelf ${i % 997}`, i),
);
const BOB = conceptDraft64('', 'bob', 'Bob is building a billing service too', 0);

/** 100,000 unrelated notes for one user (the needle among them), and one related note of another user. */
async function fill(store: MemoryVectorStore, appName: string): Promise<void> {
  for (let start = 0; start < ENTRIES; start += 20_000)
    await store.insert(ALICE.slice(start, start + 20_000).map((d) => ({ ...d, appName })));
  await store.insert([{ ...BOB, appName }]);
}

const stores: [string, () => MemoryVectorStore, boolean][] = [
  ['in memory', () => new InMemoryVectorStore(), true],
  ['SQLite exact', () => new SqlVectorStore({ db: sqlite.db }), true],
  ['SQLite sqlite-vec', () => new SqlVectorStore({ db: vecDb }), true],
  [
    'PostgreSQL exact',
    () => new SqlVectorStore({ db: postgres?.db ?? sqlite.db }),
    skipPostgres === undefined,
  ],
];

describe.each(stores)('100,000 memories of one user (%s)', (label, makeStore, enabled) => {
  it.skipIf(!enabled)(
    "finds the one related memory by meaning, by words and hybrid, and only this user's",
    async () => {
      const store = makeStore();
      const appName = `big-${label.replace(/\W/g, '-')}`;
      await fill(store, appName);
      const memory = new SemanticMemoryService({
        store,
        embedder: new ConceptEmbeddingModel({ dimensions: 64 }),
      });
      const ask = (query: string, mode: 'semantic' | 'words' | 'hybrid') =>
        memory.searchMemory({ appName, userId: 'alice', query, mode, limit: 5 });
      const semantic = await ask('my payments project', 'semantic');
      expect(semantic.memories.map((m) => m.content.parts[0]?.text)).toEqual([NEEDLE]);
      const hybrid = await ask('my payments project', 'hybrid');
      expect(hybrid.memories[0]?.content.parts[0]?.text).toBe(NEEDLE);
      const words = await ask('billing', 'words');
      expect(words.memories.map((m) => m.content.parts[0]?.text)).toEqual([NEEDLE]);
      expect((await store.list({ appName, userId: 'alice', limit: 3 })).map((m) => m.text)).toEqual(
        ['note 99999 on shelf 299', 'note 99998 on shelf 298', 'note 99997 on shelf 297'],
      );
      expect(await store.delete({ appName, userId: 'alice' })).toBe(ENTRIES);
      expect(
        (await memory.searchMemory({ appName, userId: 'bob', query: 'payments project' })).memories,
      ).toHaveLength(1);
    },
    600_000,
  );
});
