import { fileURLToPath } from 'node:url';

import { ProcessRace, sqliteKysely, temporaryDirectory } from '@adk/test-databases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SqlArtifactService } from '../src';

const WORKER = fileURLToPath(new URL('./fixtures/migrate-worker.ts', import.meta.url));
const PACKAGE_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 20;

describe('two OS processes migrating the artifact table of a brand-new SQLite file at once', () => {
  const temp = temporaryDirectory('adk-artifacts-migrate-race-');
  let race: ProcessRace;
  beforeAll(async () => {
    race = await ProcessRace.start(WORKER, 2, PACKAGE_ROOT);
  });
  afterAll(async () => {
    await race?.stop();
    temp.remove();
  });

  it('both succeed, every round, and both saves are there', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const file = temp.file(`race-${round}.db`);
      expect(await race.round([file]), `round ${round}`).toEqual([{ ok: true }, { ok: true }]);
      const db = sqliteKysely(file);
      try {
        const artifacts = new SqlArtifactService({ db, autoMigrate: false });
        const names = await artifacts.listArtifactKeys({
          appName: 'race',
          userId: 'u',
          sessionId: 's',
        });
        expect(names).toHaveLength(2);
        const migrations = await db.selectFrom('adk_artifacts_migrations').select('name').execute();
        expect(migrations).toEqual([{ name: '0001_create_artifacts' }]);
      } finally {
        await db.destroy();
      }
    }
  });
});
