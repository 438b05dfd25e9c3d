import { openTestDatabases, temporaryDirectory } from '@adk/test-databases';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { semanticMemoryConformance } from '../../testing/vitest';
import { loadSqliteVec } from './load-sqlite-vec';
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
  semanticMemoryConformance(
    'SqlVectorStore (PostgreSQL, exact)',
    () => new SqlVectorStore({ db: postgres!.db }),
  );
});
