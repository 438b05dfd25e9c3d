import {
  createPostgresSchema,
  dropPostgresSchema,
  postgresKysely,
  postgresSchemaName,
  postgresUnavailable,
  sqliteKysely,
  temporaryDirectory,
} from '@adk/test-databases';
import { sql } from 'kysely';
import { afterAll } from 'vitest';

import type { AnyKysely, SqlDialect } from '../src';

/** A brand-new empty database for one test. */
export interface FreshDatabase {
  dialect: SqlDialect;
  /** A Kysely on it (on PostgreSQL its `search_path` is a fresh schema of its own). */
  db: AnyKysely;
  /** PostgreSQL: the schema `db`'s connections default to. */
  home: string | undefined;
  /** The tables of `schema` (PostgreSQL; default `home`) or of the file (SQLite), sorted. */
  tables(schema?: string): Promise<string[]>;
}

/** One real database kind a test file runs against. */
export interface Backend {
  label: 'SQLite file' | 'PostgreSQL';
  dialect: SqlDialect;
  /** False when PostgreSQL is unreachable outside CI: its tests are skipped with a notice. */
  available: boolean;
  fresh(): Promise<FreshDatabase>;
  /** PostgreSQL: a new schema name (dropped after the file's tests), not created. */
  newSchema(): string;
}

/**
 * SQLite (a file in a temporary directory) and PostgreSQL (a schema per database), cleaned up
 * after the calling test file. Under `CI=true` an unreachable PostgreSQL throws here: its tests
 * fail, never skip.
 */
export async function testBackends(): Promise<Backend[]> {
  const postgresAvailable = (await postgresUnavailable()) === undefined;
  const temp = temporaryDirectory('adk-sql-kit-');
  const schemas: string[] = [];
  const opened: AnyKysely[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((db) => db.destroy()));
    temp.remove();
    for (const schema of schemas) await dropPostgresSchema(schema);
  });
  const newSchema = () => {
    const schema = postgresSchemaName('sql_kit');
    schemas.push(schema);
    return schema;
  };
  return [
    {
      label: 'SQLite file',
      dialect: 'sqlite',
      available: true,
      newSchema,
      fresh: async () => {
        const db = sqliteKysely(temp.file(`${Math.random().toString(36).slice(2)}.db`));
        opened.push(db);
        return {
          dialect: 'sqlite',
          db,
          home: undefined,
          tables: async () =>
            (
              await sql<{
                name: string;
              }>`select name from sqlite_master where type = 'table' order by name`.execute(db)
            ).rows.map((row) => row.name),
        };
      },
    },
    {
      label: 'PostgreSQL',
      dialect: 'postgres',
      available: postgresAvailable,
      newSchema,
      fresh: async () => {
        const home = newSchema();
        await createPostgresSchema(home);
        const db = postgresKysely(home, { max: 4 });
        opened.push(db);
        return {
          dialect: 'postgres',
          db,
          home,
          tables: async (schema = home) =>
            (
              await sql<{
                name: string;
              }>`select table_name as name from information_schema.tables where table_schema = ${schema} order by table_name`.execute(
                db,
              )
            ).rows.map((row) => row.name),
        };
      },
    },
  ];
}
