import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';

import { POSTGRES_URL } from './postgres-url';
import { createPostgresSchema, dropPostgresSchema, postgresSchemaName } from './postgres-schema';
import type { TestDatabase } from './test-database';

/** The database of the pgvector tests: the extension is created there, never in `test`. */
export const PGVECTOR_DATABASE = 'adk_test_pgvector';

/** What {@link openPgvectorDatabase} found. */
export type PgvectorTestDatabase =
  { database: TestDatabase; skip: undefined } | { database: undefined; skip: string };

const urlOf = (database: string) => {
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

async function run(url: string, statement: string, ignoreCodes: string[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    await client.query(statement);
  } catch (error) {
    // Two test files creating the database or the extension at once: one of them loses.
    if (!ignoreCodes.includes(String((error as { code?: unknown }).code))) throw error;
  } finally {
    await client.end();
  }
}

/**
 * A fresh schema in the database {@link PGVECTOR_DATABASE} (created with the `vector`
 * extension on first use), so that the other tests' database never has the extension. Skipped
 * with a notice when the server has no pgvector, unless `ADK_TEST_PGVECTOR=required` (set by
 * `.ci/run` when it installed the extension), where that throws. The connections' `search_path`
 * is the schema alone: the extension's `public` schema is not on it.
 */
export async function openPgvectorDatabase(label: string): Promise<PgvectorTestDatabase> {
  try {
    await run(POSTGRES_URL, `create database ${PGVECTOR_DATABASE}`, ['42P04', '23505']);
    await run(urlOf(PGVECTOR_DATABASE), 'create extension if not exists vector schema public', [
      '23505',
      '42710',
    ]);
  } catch (error) {
    const reason = `pgvector unavailable on ${POSTGRES_URL} (${String(error)}); skipping its tests`;
    if (process.env.ADK_TEST_PGVECTOR === 'required')
      throw new Error(`ADK_TEST_PGVECTOR=required but ${reason}`, { cause: error });
    console.warn(reason);
    return { database: undefined, skip: reason };
  }
  const schema = postgresSchemaName(label);
  const url = urlOf(PGVECTOR_DATABASE);
  await createPostgresSchema(schema, url);
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path=${schema}`, max: 10 });
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return {
    skip: undefined,
    database: {
      db,
      close: async () => {
        await db.destroy();
        await dropPostgresSchema(schema, url);
      },
    },
  };
}
