import { fileURLToPath } from 'node:url';

import {
  dropPostgresSchema,
  postgresKysely,
  postgresSchemaName,
  postgresUnavailable,
  ProcessRace,
  sqliteKysely,
  temporaryDirectory,
} from '@adk/test-databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SqlMemoryService, type AnyKysely } from '../src';

const WORKER = fileURLToPath(new URL('./fixtures/migrate-worker.ts', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 20;

let race: ProcessRace;
beforeAll(async () => {
  race = await ProcessRace.start(WORKER, 2, PACKAGE_ROOT);
});
afterAll(() => race?.stop());

/** Both processes' sessions are searchable, and the migration ran exactly once. */
async function expectBothRemembered(db: AnyKysely, schema?: string): Promise<void> {
  const memory = new SqlMemoryService({ db, autoMigrate: false, ...(schema ? { schema } : {}) });
  const { memories } = await memory.searchMemory({ appName: 'race', userId: 'u', query: 'racing' });
  expect(memories).toHaveLength(2);
  const scoped = schema === undefined ? db : db.withSchema(schema);
  const migrations = await scoped.selectFrom('adk_memory_migrations').select('name').execute();
  expect(migrations).toEqual([{ name: '0001_create_memory' }]);
}

describe('two OS processes migrating the memory tables of a brand-new SQLite file at once', () => {
  const temp = temporaryDirectory('adk-memory-migrate-race-');
  afterAll(() => temp.remove());

  it('both succeed, every round', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const file = temp.file(`race-${round}.db`);
      expect(await race.round(['sqlite', file]), `round ${round}`).toEqual([
        { ok: true },
        { ok: true },
      ]);
      const db = sqliteKysely(file);
      try {
        await expectBothRemembered(db);
      } finally {
        await db.destroy();
      }
    }
  });
});

const skipPostgres = await postgresUnavailable();

describe.skipIf(skipPostgres !== undefined)(
  'two OS processes migrating the memory tables into a brand-new PostgreSQL schema at once',
  () => {
    const schemas: string[] = [];
    afterAll(async () => {
      for (const schema of schemas) await dropPostgresSchema(schema);
    });

    it('both succeed, every round', async () => {
      const db = postgresKysely('public', { max: 2 });
      try {
        for (let round = 0; round < ROUNDS / 2; round++) {
          const schema = postgresSchemaName('memory_race');
          schemas.push(schema);
          expect(await race.round(['postgres', schema]), `round ${round}`).toEqual([
            { ok: true },
            { ok: true },
          ]);
          await expectBothRemembered(db, schema);
        }
      } finally {
        await db.destroy();
      }
    });
  },
);
