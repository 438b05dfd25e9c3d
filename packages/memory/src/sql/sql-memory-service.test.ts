import { createEvent, type Session } from '@adk/core';
import { memoryServiceConformance } from '@adk/core/testing';
import { openTestDatabases, sqliteDatabase } from '@adk/test-databases';
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
      await Promise.all([
        service.addSessionToMemory(s),
        service.addSessionToMemory(s),
        service.addSessionToMemory(s),
      ]);
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
