import { requireSqlDialect, type AnyKysely } from '@adk/sql-kit';

import { UnsupportedJobDialectError } from '../errors/unsupported-job-dialect-error';

export type { AnyKysely } from '@adk/sql-kit';

/** The SQL database `SqlJobStore` drives: SQLite only (PostgreSQL users get `GraphileJobStore`). */
export type JobDialect = 'sqlite';

/**
 * Check that `db` talks to SQLite (or that the caller says so with `override`).
 *
 * @throws UnsupportedJobDialectError for any other database; for PostgreSQL the error points to
 * `GraphileJobStore`.
 */
export function detectJobDialect(db: AnyKysely, override?: JobDialect): JobDialect {
  const dialect = requireSqlDialect(db, {
    override,
    unsupported: (adapter) => new UnsupportedJobDialectError({ adapter }),
  });
  if (dialect !== 'sqlite') throw new UnsupportedJobDialectError({ adapter: 'PostgresAdapter' });
  return dialect;
}
