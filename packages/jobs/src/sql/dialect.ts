import { PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';

import { UnsupportedJobDialectError } from '../errors/unsupported-job-dialect-error';

/** The SQL databases the job store drives. */
export type JobDialect = 'sqlite' | 'postgres';

/**
 * A Kysely instance over any schema: the store only touches its own tables, so it accepts the
 * user's instance whatever its database type parameter is.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely<DB> is invariant in DB.
export type AnyKysely = Kysely<any>;

/** Which database `db` talks to, from its adapter (or the explicit override). */
export function detectJobDialect(db: AnyKysely, override?: JobDialect): JobDialect {
  if (override) return override;
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  throw new UnsupportedJobDialectError({ adapter: adapter.constructor.name });
}

/** True when `error` is a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
