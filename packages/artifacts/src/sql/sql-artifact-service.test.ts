import { InvalidArgumentError } from '@adk/core';
import { artifactServiceConformance } from '@adk/core/testing/vitest';
import {
  dropPostgresSchema,
  openTestDatabases,
  postgresKysely,
  postgresSchemaName,
  sqliteDatabase,
} from '@adk/test-databases';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { CorruptArtifactError } from '../errors/corrupt-artifact-error';
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
    // Many more savers than the pool has connections, all after the same next version.
    const savers = 96;
    const versions = await Promise.all(
      Array.from({ length: savers }, (_, i) =>
        services[i % 4]!.saveArtifact({ ...scope, artifact: { text: String(i) } }),
      ),
    );
    expect([...versions].sort((a, b) => a - b)).toEqual(
      Array.from({ length: savers }, (_, i) => i),
    );
    // Each version holds what its own saver wrote.
    const texts = await Promise.all(
      versions.map((version) => services[0]!.loadArtifact({ ...scope, version })),
    );
    expect(texts).toEqual(Array.from({ length: savers }, (_, i) => ({ text: String(i) })));
  });
});

describe('SqlArtifactService corrupt metadata', () => {
  it('reports unreadable custom_metadata with CorruptArtifactError, not a raw SyntaxError', async () => {
    const service = new SqlArtifactService({ db: sqlite.db });
    const s = { appName: 'corrupt-app', userId: 'u', sessionId: 's', filename: 'm.txt' };
    await service.saveArtifact({ ...s, artifact: { text: 'x' }, customMetadata: { a: 1 } });
    for (const stored of ['{"a":', '[1, 2]']) {
      await sql`update adk_artifacts set custom_metadata = ${stored} where app_name = 'corrupt-app'`.execute(
        sqlite.db,
      );
      const error = await service.getArtifactVersion(s).catch((e: unknown) => e);
      expect(CorruptArtifactError.isInstance(error), stored).toBe(true);
      expect((error as CorruptArtifactError).location).toContain('m.txt');
      await expect(service.listArtifactVersions(s)).rejects.toSatisfy(
        CorruptArtifactError.isInstance,
      );
    }
    // The bytes themselves stay readable.
    expect(await service.loadArtifact(s)).toEqual({ text: 'x' });
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

describe.skipIf(skipPostgres !== undefined)('SqlArtifactService schema option (PostgreSQL)', () => {
  // The connection's search_path names one schema; the table must go to another one.
  const searchPathSchema = postgresSchemaName('artifacts_path');
  const tablesSchema = postgresSchemaName('artifacts_own');
  const db = postgresKysely(searchPathSchema, { max: 4 });
  afterAll(async () => {
    await db.destroy();
    for (const schema of [searchPathSchema, tablesSchema]) await dropPostgresSchema(schema);
  });
  const tablesIn = async (schema: string) =>
    (
      await sql<{
        table_name: string;
      }>`select table_name from information_schema.tables where table_schema = ${schema} order by table_name`.execute(
        db,
      )
    ).rows.map((r) => r.table_name);

  artifactServiceConformance(
    'SqlArtifactService (PostgreSQL, schema option)',
    () => new SqlArtifactService({ db, schema: tablesSchema }),
  );

  it('creates the schema and puts the artifact tables there, none on the search path', async () => {
    const service = new SqlArtifactService({ db, schema: tablesSchema });
    await service.migrate();
    await service.saveArtifact({
      appName: 'a',
      userId: 'u',
      sessionId: 's',
      filename: 'in-schema.txt',
      artifact: { text: 'x' },
    });
    expect(await tablesIn(tablesSchema)).toEqual([
      'adk_artifacts',
      'adk_artifacts_migrations',
      'adk_artifacts_migrations_lock',
    ]);
    expect(await tablesIn(searchPathSchema)).toEqual([]);
    const stored = await sql<{
      filename: string;
    }>`select filename from ${sql.id(tablesSchema, 'adk_artifacts')}`.execute(db);
    expect(stored.rows.map((r) => r.filename)).toContain('in-schema.txt');
  });
});

describe('SqlArtifactService schema option on SQLite', () => {
  it('is refused with InvalidArgumentError', () => {
    let error: unknown;
    try {
      new SqlArtifactService({ db: sqlite.db, schema: 'main' });
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe('schema');
  });
});
