import { fileURLToPath } from 'node:url';

import {
  dropPostgresSchema,
  POSTGRES_URL,
  postgresSchemaName,
  postgresUnavailable,
  ProcessRace,
  sqliteKysely,
  temporaryDirectory,
} from '@adk/test-databases';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SqlSessionService } from '../src';

const WORKER = fileURLToPath(new URL('./fixtures/migrate-worker.ts', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 20;

let race: ProcessRace;
beforeAll(async () => {
  race = await ProcessRace.start(WORKER, 2, PACKAGE_ROOT);
});
afterAll(() => race?.stop());

describe('two OS processes migrating a brand-new SQLite file at the same moment', () => {
  const temp = temporaryDirectory('adk-session-migrate-race-');
  afterAll(() => temp.remove());

  it('both succeed, every round, leaving one migration row and one schema version', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const file = temp.file(`race-${round}.db`);
      expect(await race.round([`sqlite:${file}`]), `round ${round}`).toEqual([
        { ok: true },
        { ok: true },
      ]);
      const db = sqliteKysely(file, { wal: true });
      try {
        const migrations = await sql<{
          name: string;
        }>`select name from adk_session_migration`.execute(db);
        expect(migrations.rows).toEqual([{ name: '001_adk_session_schema_v1' }]);
        const versions = await sql<{
          value: string;
        }>`select value from adk_internal_metadata where key = 'schema_version'`.execute(db);
        expect(versions.rows).toEqual([{ value: '1' }]);
        const sessions = await sql<{ n: number }>`select count(*) as n from sessions`.execute(db);
        expect(sessions.rows).toEqual([{ n: 2 }]);
      } finally {
        await db.destroy();
      }
    }
  });
});

const skipPostgres = await postgresUnavailable();

describe.skipIf(skipPostgres !== undefined)(
  'two OS processes migrating a brand-new PostgreSQL schema at the same moment',
  () => {
    const schemas: string[] = [];
    afterAll(async () => {
      for (const schema of schemas) await dropPostgresSchema(schema);
    });

    it('both succeed, every round', async () => {
      for (let round = 0; round < ROUNDS / 2; round++) {
        const schema = postgresSchemaName('session_race');
        schemas.push(schema);
        expect(await race.round([POSTGRES_URL, schema]), `round ${round}`).toEqual([
          { ok: true },
          { ok: true },
        ]);
        const check = await SqlSessionService.fromUrl(POSTGRES_URL, { schema, poolSize: 1 });
        try {
          expect((await check.listSessions({ appName: 'race' })).sessions).toHaveLength(2);
        } finally {
          await check.close();
        }
      }
    });
  },
);
