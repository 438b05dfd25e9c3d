import { Kysely, PostgresDialect, type KyselyPlugin } from 'kysely';
import pg from 'pg';

import { POSTGRES_URL } from './postgres-url';

/** Options of {@link postgresKysely}. */
export interface PostgresKyselyOptions {
  /** Kysely plugins (e.g. a query recorder). */
  plugins?: KyselyPlugin[];
  /** Pool size; 10 unless told. */
  max?: number;
}

/**
 * A Kysely over the test PostgreSQL server whose connections have `search_path` set to `schema`
 * (create it first with `createPostgresSchema`). The caller destroys it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema unless told
export function postgresKysely<DB = any>(
  schema: string,
  options: PostgresKyselyOptions = {},
): Kysely<DB> {
  const pool = new pg.Pool({
    connectionString: POSTGRES_URL,
    options: `-c search_path=${schema}`,
    max: options.max ?? 10,
  });
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: options.plugins ?? [] });
}
