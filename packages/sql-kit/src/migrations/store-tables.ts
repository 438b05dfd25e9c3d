import { requireSqlDialect } from '../dialect/detect-sql-dialect';
import type { AnyKysely, SqlDialect } from '../dialect/sql-dialect';
import { onceUntilFailure } from './once-until-failure';
import { runMigrations, type RunMigrationsOptions } from './run-migrations';

/** Options of {@link storeTables}. */
export interface StoreTablesOptions {
  /** The caller's forced dialect (a custom adapter), else detected from the Kysely instance. */
  dialect?: SqlDialect | undefined;
  /** The store's typed error for an adapter that is neither SQLite nor PostgreSQL. */
  unsupported: (adapter: string) => Error;
  /** The store's migrations for the dialect found. */
  migrations: (dialect: SqlDialect) => RunMigrationsOptions;
  /** Run after the migrations, inside the same once-until-failure (e.g. probing an extension). */
  afterMigrate?: () => Promise<void>;
}

/** What {@link storeTables} gives a store. */
export interface StoreTables {
  dialect: SqlDialect;
  /** Create or upgrade the tables: one run shared by concurrent callers, again after a failure. */
  migrate: () => Promise<void>;
}

/**
 * How a SQL-backed store opens its tables: the dialect of `db` (the store's typed error when it
 * is not supported, thrown at construction) and a `migrate` that runs the store's migrations
 * once, or again after a failed attempt.
 *
 * @example
 * ```ts
 * const tables = storeTables(db, {
 *   unsupported: (adapter) => new UnsupportedNotesDialectError({ adapter }),
 *   migrations: (dialect) => notesMigrations(dialect),
 * });
 * await tables.migrate();
 * ```
 */
export function storeTables(db: AnyKysely, options: StoreTablesOptions): StoreTables {
  const dialect = requireSqlDialect(db, {
    override: options.dialect,
    unsupported: options.unsupported,
  });
  const migrate = onceUntilFailure(async () => {
    await runMigrations(db, options.migrations(dialect));
    await options.afterMigrate?.();
  });
  return { dialect, migrate };
}
