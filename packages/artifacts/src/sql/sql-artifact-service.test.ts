import { artifactServiceConformance } from '@adk/core/testing';
import { openTestDatabases, sqliteDatabase } from '@adk/test-databases';
import { afterAll, describe, expect, it } from 'vitest';

import { SqlArtifactService } from './sql-artifact-service';

const { sqlite, postgres, skipPostgres, close } = await openTestDatabases('artifacts');
afterAll(close);

artifactServiceConformance(
  'SqlArtifactService (SQLite)',
  () => new SqlArtifactService({ db: sqlite.db }),
);

describe.skipIf(skipPostgres !== undefined)('PostgreSQL', () => {
  artifactServiceConformance(
    'SqlArtifactService (PostgreSQL)',
    () => new SqlArtifactService({ db: postgres!.db }),
  );

  it('settles many concurrent writers over a connection pool with distinct versions', async () => {
    const services = Array.from({ length: 4 }, () => new SqlArtifactService({ db: postgres!.db }));
    const scope = { appName: 'pool-app', userId: 'u', sessionId: 's', filename: 'contended.txt' };
    const versions = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        services[i % 4]!.saveArtifact({ ...scope, artifact: { text: String(i) } }),
      ),
    );
    expect([...versions].sort((a, b) => a - b)).toEqual(Array.from({ length: 24 }, (_, i) => i));
  });
});

describe('SqlArtifactService migrations', () => {
  it('creates its tables once and can be run again by another instance', async () => {
    const own = await sqliteDatabase();
    try {
      const first = new SqlArtifactService({ db: own.db, autoMigrate: false });
      await first.migrate();
      await first.migrate();
      await new SqlArtifactService({ db: own.db }).migrate();
      const tables = await own.db.introspection.getTables();
      expect(
        tables
          .map((t) => t.name)
          .filter((n) => n.startsWith('adk_artifacts'))
          .sort(),
      ).toEqual(['adk_artifacts', 'adk_artifacts_migrations', 'adk_artifacts_migrations_lock']);
      expect(
        await first.saveArtifact({
          appName: 'a',
          userId: 'u',
          sessionId: 's',
          filename: 'f',
          artifact: { text: 'x' },
        }),
      ).toBe(0);
    } finally {
      await own.close();
    }
  });

  it('fails clearly without auto-migration when the tables do not exist', async () => {
    const own = await sqliteDatabase();
    try {
      const service = new SqlArtifactService({ db: own.db, autoMigrate: false });
      await expect(
        service.listArtifactKeys({ appName: 'a', userId: 'u', sessionId: 's' }),
      ).rejects.toThrow(/adk_artifacts/);
    } finally {
      await own.close();
    }
  });
});
