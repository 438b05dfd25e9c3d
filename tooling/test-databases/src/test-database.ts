import type { Kysely } from 'kysely';

import { postgresKysely } from './postgres-kysely';
import { createPostgresSchema, dropPostgresSchema, postgresSchemaName } from './postgres-schema';
import { postgresUnavailable } from './postgres-unavailable';
import { sqliteKysely } from './sqlite-kysely';
import { temporaryDirectory } from './temporary-directory';

/** A test database and how to dispose of it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema unless told
export interface TestDatabase<DB = any> {
  db: Kysely<DB>;
  /** Destroy `db`, then delete the SQLite file or drop the PostgreSQL schema. */
  close(): Promise<void>;
}

/** A Kysely over a fresh SQLite file in a temporary directory, deleted on close. */
export async function sqliteDatabase(): Promise<TestDatabase> {
  const directory = temporaryDirectory('adk-sqlite-');
  const db = sqliteKysely(directory.file('test.db'));
  return {
    db,
    close: async () => {
      await db.destroy();
      directory.remove();
    },
  };
}

/**
 * A Kysely whose connections live in a fresh schema (`adk_test_<label>_<random>`), dropped on
 * close, so that test files running in parallel never see each other's tables.
 */
export async function postgresDatabase(label: string): Promise<TestDatabase> {
  const schema = postgresSchemaName(label);
  await createPostgresSchema(schema);
  const db = postgresKysely(schema);
  return {
    db,
    close: async () => {
      await db.destroy();
      await dropPostgresSchema(schema);
    },
  };
}

/** What {@link openTestDatabases} opened. */
export interface TestDatabases {
  sqlite: TestDatabase;
  /** Undefined when PostgreSQL is unreachable outside CI (see `skipPostgres`). */
  postgres: TestDatabase | undefined;
  /** Why the PostgreSQL tests are skipped, or undefined when they run. */
  skipPostgres: string | undefined;
  /** Close both. */
  close(): Promise<void>;
}

/**
 * One SQLite file and, when the server answers (always under `CI=true`), one PostgreSQL schema
 * for a test file.
 *
 * @example
 * ```ts
 * const databases = await openTestDatabases('artifacts');
 * afterAll(() => databases.close());
 * describe.skipIf(databases.skipPostgres !== undefined)('PostgreSQL', () => { ... });
 * ```
 */
export async function openTestDatabases(label: string): Promise<TestDatabases> {
  const sqlite = await sqliteDatabase();
  const skipPostgres = await postgresUnavailable();
  const postgres = skipPostgres === undefined ? await postgresDatabase(label) : undefined;
  return {
    sqlite,
    postgres,
    skipPostgres,
    close: async () => {
      await sqlite.close();
      await postgres?.close();
    },
  };
}
