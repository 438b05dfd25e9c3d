import { requireSqlDialect, type AnyKysely, type SqlDialect } from '@adk/sql-kit';

import { UnsupportedJobDialectError } from '../errors/unsupported-job-dialect-error';

export type { AnyKysely } from '@adk/sql-kit';

/** The SQL databases the job store drives. */
export type JobDialect = SqlDialect;

/**
 * Which database `db` talks to, from its adapter (or the explicit override).
 *
 * @throws UnsupportedJobDialectError when `db` is neither SQLite nor PostgreSQL.
 */
export function detectJobDialect(db: AnyKysely, override?: JobDialect): JobDialect {
  return requireSqlDialect(db, {
    override,
    unsupported: (adapter) => new UnsupportedJobDialectError({ adapter }),
  });
}
