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

import type { AnyKysely } from '../src';
import { NOTES_MIGRATIONS, NOTES_TABLE } from './fixtures/notes-migrations';

const WORKER = fileURLToPath(new URL('./fixtures/migrate-worker.ts', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 16;

// Under CI=true an unreachable PostgreSQL throws here: its tests fail, never skip.
const skipPostgres = await postgresUnavailable();

let race: ProcessRace;
beforeAll(async () => {
  race = await ProcessRace.start(WORKER, 2, PACKAGE_ROOT);
});
afterAll(() => race?.stop());

/** Both processes wrote their note, and the migration ran exactly once. */
async function expectMigratedOnce(db: AnyKysely, schema?: string): Promise<void> {
  const scoped = schema === undefined ? db : db.withSchema(schema);
  expect(await scoped.selectFrom(NOTES_TABLE).select('text').execute()).toHaveLength(2);
  expect(await scoped.selectFrom(NOTES_MIGRATIONS).select('name').execute()).toEqual([
    { name: '0001_create_notes' },
  ]);
}

describe('two OS processes running the migrations of a brand-new SQLite file at once', () => {
  const temp = temporaryDirectory('adk-sql-kit-race-');
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
        await expectMigratedOnce(db);
      } finally {
        await db.destroy();
      }
    }
  });
});

describe.skipIf(skipPostgres !== undefined)(
  'two OS processes running the migrations into a brand-new PostgreSQL schema at once',
  () => {
    const schemas: string[] = [];
    afterAll(async () => {
      for (const schema of schemas) await dropPostgresSchema(schema);
    });

    it('both succeed, every round', async () => {
      const db = postgresKysely('public', { max: 2 });
      try {
        for (let round = 0; round < ROUNDS / 2; round++) {
          const schema = postgresSchemaName('sql_kit_race');
          schemas.push(schema);
          expect(await race.round(['postgres', schema]), `round ${round}`).toEqual([
            { ok: true },
            { ok: true },
          ]);
          await expectMigratedOnce(db, schema);
        }
      } finally {
        await db.destroy();
      }
    });
  },
);
