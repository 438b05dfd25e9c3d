import { existsSync } from 'node:fs';
import { createServer } from 'node:net';

import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  postgresDatabase,
  postgresUnavailable,
  sqliteDatabase,
  temporaryDirectory,
  type TestDatabase,
} from '../src';

/** A 127.0.0.1 port that accepts connections and closes them at once: no PostgreSQL there. */
async function deadPostgresUrl(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `postgresUnavailable` of a fresh module instance, so that it reads the stubbed environment. */
async function probeWith(env: Record<string, string>): Promise<string | undefined> {
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const fresh = await import('../src');
  return fresh.postgresUnavailable();
}

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('sqliteDatabase', () => {
  it('opens a real SQLite file and deletes its directory on close', async () => {
    const database = await sqliteDatabase();
    await sql`create table t (x integer)`.execute(database.db);
    await sql`insert into t values (42)`.execute(database.db);
    const { rows } = await sql<{ x: number }>`select x from t`.execute(database.db);
    expect(rows).toEqual([{ x: 42 }]);
    const { rows: files } = await sql<{ file: string }>`pragma database_list`.execute(database.db);
    const file = files[0]!.file;
    expect(existsSync(file)).toBe(true);
    await database.close();
    expect(existsSync(file)).toBe(false);
  });
});

describe('temporaryDirectory', () => {
  it('names files inside itself and removes them all', () => {
    const directory = temporaryDirectory('adk-test-databases-');
    expect(directory.file('a.db').startsWith(directory.dir)).toBe(true);
    expect(existsSync(directory.dir)).toBe(true);
    directory.remove();
    expect(existsSync(directory.dir)).toBe(false);
  });
});

describe('postgresUnavailable', () => {
  it('skips with a reason outside CI when nothing speaks PostgreSQL', async () => {
    const dead = await deadPostgresUrl();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const reason = await probeWith({ ADK_TEST_POSTGRES_URL: dead.url, CI: 'false' });
      expect(reason).toContain(dead.url);
      expect(warn).toHaveBeenCalledWith(reason);
    } finally {
      await dead.close();
    }
  });

  it('fails under CI=true when nothing speaks PostgreSQL', async () => {
    const dead = await deadPostgresUrl();
    try {
      await expect(probeWith({ ADK_TEST_POSTGRES_URL: dead.url, CI: 'true' })).rejects.toThrow(
        /required under CI=true/,
      );
    } finally {
      await dead.close();
    }
  });
});

const skipPostgres = await postgresUnavailable();

describe.skipIf(skipPostgres !== undefined)('postgresDatabase', () => {
  it('gives each database a schema of its own and drops it on close', async () => {
    const first: TestDatabase = await postgresDatabase('first');
    const second: TestDatabase = await postgresDatabase('second');
    try {
      await sql`create table t (x integer)`.execute(first.db);
      await sql`insert into t values (1)`.execute(first.db);
      await sql`create table t (x integer)`.execute(second.db);
      const { rows } = await sql<{ x: number }>`select x from t`.execute(second.db);
      expect(rows).toEqual([]);
    } finally {
      await second.close();
    }
    const { rows: schemas } = await sql<{
      schema: string;
    }>`select current_schema() as schema`.execute(first.db);
    const schema = schemas[0]!.schema;
    expect(schema).toMatch(/^adk_test_first_[0-9a-f]{10}$/);
    await first.close();
    const probe = await postgresDatabase('probe');
    try {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from information_schema.schemata where schema_name = ${schema}
      `.execute(probe.db);
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await probe.close();
    }
  });
});
