import { createEvent, InvalidArgumentError, type Session } from '@adk/core';
import { memoryServiceConformance } from '@adk/core/testing/vitest';
import {
  dropPostgresSchema,
  openTestDatabases,
  postgresKysely,
  postgresSchemaName,
  sqliteDatabase,
} from '@adk/test-databases';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { SqlMemoryService } from './sql-memory-service';

const { sqlite, postgres, skipPostgres, close } = await openTestDatabases('memory');
afterAll(close);

function session(appName: string, id: string, texts: string[]): Session {
  const events = texts.map((text, i) =>
    createEvent({
      invocationId: 'inv',
      author: 'user',
      timestamp: 1_700_000_000_000 + i,
      content: { role: 'user', parts: [{ text }] },
    }),
  );
  return { id, appName, userId: 'u', state: {}, events, lastUpdateTime: Date.now() };
}

function behaviour(label: string, make: () => SqlMemoryService) {
  memoryServiceConformance(label, make);

  describe(`${label}: full-text search`, () => {
    it('matches inflected forms through stemming and ranks by relevance', async () => {
      const service = make();
      await service.addSessionToMemory(
        session('stem-app', 's1', [
          'I was running along the river every morning',
          'The cat sleeps all day',
          'Runners love running shoes',
        ]),
      );
      const { memories } = await service.searchMemory({
        appName: 'stem-app',
        userId: 'u',
        query: 'runs',
      });
      expect(memories.map((m) => m.content.parts[0]?.text)).toContain(
        'I was running along the river every morning',
      );
      expect(memories.every((m) => typeof m.score === 'number' && m.score > 0)).toBe(true);
      const scores = memories.map((m) => m.score!);
      expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    });

    it('refreshes a session concurrently with itself without losing or duplicating entries', async () => {
      const service = make();
      const s = session('race-app', 's1', ['alpha beta', 'beta gamma', 'gamma delta']);
      // On PostgreSQL, twelve at once used to exhaust the writers' retries on the unique key.
      await Promise.all(Array.from({ length: 12 }, () => service.addSessionToMemory(s)));
      const { memories } = await service.searchMemory({
        appName: 'race-app',
        userId: 'u',
        query: 'alpha beta gamma delta',
        limit: 50,
      });
      expect(memories).toHaveLength(3);
    });

    it('remembers a long session in batches', async () => {
      const service = make();
      const texts = Array.from(
        { length: 450 },
        (_, i) => `entry number ${i} about ${i % 2 ? 'apples' : 'pears'}`,
      );
      await service.addSessionToMemory(session('big-app', 's1', texts));
      const { memories } = await service.searchMemory({
        appName: 'big-app',
        userId: 'u',
        query: 'apples',
        limit: 1000,
      });
      expect(memories).toHaveLength(225);
    });
  });
}

behaviour('SqlMemoryService (SQLite)', () => new SqlMemoryService({ db: sqlite.db }));

describe.skipIf(skipPostgres !== undefined)('PostgreSQL', () => {
  behaviour('SqlMemoryService (PostgreSQL)', () => new SqlMemoryService({ db: postgres!.db }));
});

describe('SqlMemoryService (SQLite): deleting keeps the FTS5 index consistent', () => {
  it('leaves no forgotten word in the index, and the index matches the entries', async () => {
    const service = new SqlMemoryService({ db: sqlite.db });
    await service.addSessionToMemory(
      session('fts-delete', 's1', ['the zeppelin lands', 'zeppelin hangar']),
    );
    await service.addSessionToMemory(session('fts-delete', 's2', ['a zeppelin ticket']));
    /** Index rows matching `word` (read from the FTS5 index itself, not through the entries). */
    const indexed = async (word: string) =>
      (
        await sql<{
          n: number;
        }>`select count(*) as n from adk_memory_fts where adk_memory_fts match ${word}`.execute(
          sqlite.db,
        )
      ).rows[0]?.n;
    const before = await indexed('zeppelin');
    expect(
      await service.deleteMemories({ appName: 'fts-delete', userId: 'u', sessionId: 's1' }),
    ).toEqual({ deletedCount: 2 });
    expect(await indexed('hangar')).toBe(0);
    expect(await indexed('zeppelin')).toBe(before! - 2);
    await service.deleteMemories({ appName: 'fts-delete', userId: 'u' });
    expect(await indexed('ticket')).toBe(0);
    // FTS5 compares the whole index with the entries table (rank 1: external content too).
    await sql`insert into adk_memory_fts(adk_memory_fts, rank) values ('integrity-check', 1)`.execute(
      sqlite.db,
    );
  });
});

describe.skipIf(skipPostgres !== undefined)('SqlMemoryService schema option (PostgreSQL)', () => {
  // The connection's search_path names one schema; the tables must go to another one.
  const searchPathSchema = postgresSchemaName('memory_path');
  const tablesSchema = postgresSchemaName('memory_own');
  const otherSchema = postgresSchemaName('memory_other');
  const db = postgresKysely(searchPathSchema, { max: 4 });
  afterAll(async () => {
    await db.destroy();
    for (const schema of [searchPathSchema, tablesSchema, otherSchema])
      await dropPostgresSchema(schema);
  });
  const tablesIn = async (schema: string) =>
    (
      await sql<{
        table_name: string;
      }>`select table_name from information_schema.tables where table_schema = ${schema} order by table_name`.execute(
        db,
      )
    ).rows.map((r) => r.table_name);

  memoryServiceConformance(
    'SqlMemoryService (PostgreSQL, schema option)',
    () => new SqlMemoryService({ db, schema: tablesSchema }),
  );

  it('creates the schema and puts every memory table there, none on the search path', async () => {
    const service = new SqlMemoryService({ db, schema: tablesSchema });
    await service.migrate();
    expect(await tablesIn(tablesSchema)).toEqual([
      'adk_memory_entries',
      'adk_memory_migrations',
      'adk_memory_migrations_lock',
    ]);
    expect(await tablesIn(searchPathSchema)).toEqual([]);
    const indexes = await sql<{
      indexname: string;
    }>`select indexname from pg_indexes where schemaname = ${tablesSchema} order by indexname`.execute(
      db,
    );
    expect(indexes.rows.map((r) => r.indexname)).toEqual(
      expect.arrayContaining(['adk_memory_entries_search_idx', 'adk_memory_entries_user_idx']),
    );
  });

  it('keeps the memories of two schemas apart on one connection', async () => {
    const own = new SqlMemoryService({ db, schema: tablesSchema });
    const other = new SqlMemoryService({ db, schema: otherSchema });
    await own.addSessionToMemory(session('schema-app', 's1', ['kept in the own schema']));
    await other.addSessionToMemory(session('schema-app', 's1', ['kept in the other schema']));
    const search = async (service: SqlMemoryService) =>
      (
        await service.searchMemory({ appName: 'schema-app', userId: 'u', query: 'kept' })
      ).memories.map((m) => m.content.parts[0]?.text);
    expect(await search(own)).toEqual(['kept in the own schema']);
    expect(await search(other)).toEqual(['kept in the other schema']);
    expect(await other.deleteMemories({ appName: 'schema-app', userId: 'u' })).toEqual({
      deletedCount: 1,
    });
    expect(await search(own)).toEqual(['kept in the own schema']);
  });
});

describe('SqlMemoryService schema option on SQLite', () => {
  it('is refused with InvalidArgumentError', () => {
    let error: unknown;
    try {
      new SqlMemoryService({ db: sqlite.db, schema: 'main' });
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('schema');
  });
});

describe('SqlMemoryService migrations', () => {
  it('creates the entries table and the FTS5 index once', async () => {
    const own = await sqliteDatabase();
    try {
      const service = new SqlMemoryService({ db: own.db, autoMigrate: false });
      await service.migrate();
      await new SqlMemoryService({ db: own.db }).migrate();
      const tables = (await own.db.introspection.getTables()).map((t) => t.name);
      expect(tables).toEqual(
        expect.arrayContaining(['adk_memory_entries', 'adk_memory_fts', 'adk_memory_migrations']),
      );
    } finally {
      await own.close();
    }
  });
});
