import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type KyselyPlugin } from 'kysely';
import pg from 'pg';

import type { SessionDatabase } from '../src';

/** The PostgreSQL test server (trust auth), overridable with ADK_TEST_POSTGRES_URL. */
export const POSTGRES_URL =
  process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether PostgreSQL answers. Under `CI=true` an unreachable server is an error (the tests must run
 * there); elsewhere the tests say so and skip.
 */
export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch (error) {
    if (process.env.CI === 'true') {
      throw new TypeError(
        `PostgreSQL is required under CI=true but ${POSTGRES_URL} is unreachable: ${String(error)}`,
      );
    }
    console.warn(
      `PostgreSQL at ${POSTGRES_URL} is unreachable: skipping the PostgreSQL tests (${String(error)}).`,
    );
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** A schema of its own for one test file: `adk_test_<random>`. */
export function randomSchemaName(): string {
  return `adk_test_${randomBytes(5).toString('hex')}`;
}

/** A Kysely over the test PostgreSQL whose search_path is `schema`. */
export function postgresKysely(
  schema: string,
  plugins: KyselyPlugin[] = [],
): Kysely<SessionDatabase> {
  const pool = new pg.Pool({
    connectionString: POSTGRES_URL,
    max: 4,
    options: `-c search_path=${schema}`,
  });
  return new Kysely<SessionDatabase>({ dialect: new PostgresDialect({ pool }), plugins });
}

/** Create the schema (idempotent). */
export async function createSchema(schema: string): Promise<void> {
  const db = postgresKysely('public');
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  } finally {
    await db.destroy();
  }
}

/** Drop the schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const db = postgresKysely('public');
  try {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
  } finally {
    await db.destroy();
  }
}

/** A temporary directory for SQLite files, and its cleanup. */
export function tempDir(): { dir: string; file(name: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'adk-session-sql-'));
  return {
    dir,
    file: (name) => join(dir, name),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A Kysely over a SQLite file, in WAL mode with a busy timeout (what `fromUrl` opens). */
export function sqliteKysely(path: string, plugins: KyselyPlugin[] = []): Kysely<SessionDatabase> {
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  return new Kysely<SessionDatabase>({ dialect: new SqliteDialect({ database }), plugins });
}
