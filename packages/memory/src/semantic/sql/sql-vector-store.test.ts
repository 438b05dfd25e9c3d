import { runMigrations } from '@adk/sql-kit';
import { openTestDatabases, postgresDatabase, temporaryDirectory } from '@adk/test-databases';
import Database from 'better-sqlite3';
import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { semanticMemoryConformance } from '../../testing/vitest';
import { loadSqliteVec } from './load-sqlite-vec';
import { semanticTableMigrations } from './semantic-tables';
import { SqlVectorStore } from './sql-vector-store';

const { sqlite, postgres, skipPostgres, close } = await openTestDatabases('semantic');
const directory = temporaryDirectory('adk-semantic-vec-');
const vecDatabase = new Database(directory.file('vec.db'));
const vecLoaded = await loadSqliteVec(vecDatabase);
const vecDb = new Kysely({ dialect: new SqliteDialect({ database: vecDatabase }) });
afterAll(async () => {
  await vecDb.destroy();
  directory.remove();
  await close();
});

describe('sqlite-vec on this machine', () => {
  it('loads from the npm package, so the sqlite-vec path is tested here', async () => {
    expect(vecLoaded).toBe(true);
    const store = new SqlVectorStore({ db: vecDb });
    await store.migrate();
    expect(store.searchPath).toBe('sqlite-vec');
  });

  it('is not used when the connection lacks it, nor when told `exact`', async () => {
    const plain = new SqlVectorStore({ db: sqlite.db });
    await plain.migrate();
    expect(plain.searchPath).toBe('sqlite exact');
    const exact = new SqlVectorStore({ db: vecDb, vectorIndex: 'exact' });
    await exact.migrate();
    expect(exact.searchPath).toBe('sqlite exact');
  });
});

semanticMemoryConformance(
  'SqlVectorStore (SQLite, exact)',
  () => new SqlVectorStore({ db: sqlite.db }),
);
semanticMemoryConformance(
  'SqlVectorStore (SQLite, sqlite-vec)',
  () => new SqlVectorStore({ db: vecDb }),
);

describe.skipIf(skipPostgres !== undefined)('PostgreSQL', () => {
  it('has no pgvector here, so the exact path is the one tested', async () => {
    const store = new SqlVectorStore({ db: postgres!.db, dimensions: 256 });
    await store.migrate();
    expect(store.searchPath).toBe('postgres exact');
  });
  it('moves vectors stored as real[] by the first schema to float32 bytes, nothing lost', async () => {
    const database = await postgresDatabase('semantic_upgrade');
    try {
      const all = semanticTableMigrations('postgres');
      const first = '0001_create_semantic_memories';
      await runMigrations(database.db, { ...all, migrations: { [first]: all.migrations[first]! } });
      const vector = [0.1, -0.25, 1 / 3, 0.5];
      await sql`insert into adk_semantic_memories (app_name, user_id, kind, timestamp, content,
          search_text, embedding, embedding_model, embedding_dims, search_vector)
        values ('app', 'u', 'fact', 1, ${JSON.stringify({ role: 'user', parts: [{ text: 'x' }] })},
          'x', cast(${`{${vector.join(',')}}`} as real[]), 'm', 4, to_tsvector('x'))`.execute(
        database.db,
      );
      const store = new SqlVectorStore({ db: database.db });
      await store.migrate();
      const [memory] = await store.list({ appName: 'app', userId: 'u', limit: 5 });
      expect(memory?.embedding).toEqual(Array.from(Float32Array.from(vector)));
      const hits = await store.searchByVector({
        ...{ appName: 'app', userId: 'u', model: 'm', limit: 1, minSimilarity: -1 },
        vector,
      });
      expect(hits.map((h) => h.memory.id)).toEqual([memory!.id]);
      expect(hits[0]!.score).toBeCloseTo(
        vector.reduce((sum, x) => sum + x * x, 0),
        5,
      );
    } finally {
      await database.close();
    }
  });
  semanticMemoryConformance(
    'SqlVectorStore (PostgreSQL, exact)',
    () => new SqlVectorStore({ db: postgres!.db }),
  );
});
