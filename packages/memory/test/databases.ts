import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';

/** A test database and how to dispose of it. */
export interface TestDatabase {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema
  db: Kysely<any>;
  close(): Promise<void>;
}

/** A Kysely instance over a fresh SQLite file in a temporary directory. */
export async function sqliteDatabase(): Promise<TestDatabase> {
  const directory = await mkdtemp(path.join(tmpdir(), 'adk-sqlite-'));
  const db = new Kysely({
    dialect: new SqliteDialect({ database: new SQLite(path.join(directory, 'test.db')) }),
  });
  return {
    db,
    close: async () => {
      await db.destroy();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

const POSTGRES_URL = process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Probe the test PostgreSQL server. Returns a reason to skip when it is unreachable, except under
 * `CI=true`, where an unreachable server must fail the run instead of silently skipping tests.
 */
export async function postgresUnavailable(): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return undefined;
  } catch (error) {
    if (process.env.CI === 'true') throw error;
    const reason = `PostgreSQL unreachable at ${POSTGRES_URL} (${String(error)}); skipping its tests`;
    console.warn(reason);
    return reason;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A Kysely instance whose connections live in a fresh schema, dropped on close. */
export async function postgresDatabase(label: string): Promise<TestDatabase> {
  const schema = `adk_test_${label}_${process.pid}_${Date.now().toString(36)}`
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const pool = new pg.Pool({
    connectionString: POSTGRES_URL,
    options: `-c search_path=${schema}`,
    max: 10,
  });
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    close: async () => {
      await db.destroy();
      const cleanup = new pg.Client({ connectionString: POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop schema "${schema}" cascade`);
      await cleanup.end();
    },
  };
}
