import { PostgresAdapter, SqliteAdapter } from 'kysely';

import type { AnyKysely, SqlDialect } from './sql-dialect';

/** Options of {@link detectSqlDialect}. */
export interface DetectSqlDialectOptions {
  /**
   * Also recognise an adapter that is not Kysely's own class but whose class name contains
   * `sqlite` or `postgres` (for example one from a second copy of Kysely). Default `false`: only
   * `instanceof SqliteAdapter` / `PostgresAdapter` count.
   */
  matchAdapterName?: boolean;
}

/**
 * Which database `db` talks to, from its Kysely adapter; `undefined` for any other database.
 *
 * @example
 * ```ts
 * detectSqlDialect(new Kysely({ dialect: new SqliteDialect({ database }) })); // 'sqlite'
 * ```
 */
export function detectSqlDialect(
  db: AnyKysely,
  options: DetectSqlDialectOptions = {},
): SqlDialect | undefined {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (options.matchAdapterName) {
    const name = adapter.constructor.name.toLowerCase();
    if (name.includes('sqlite')) return 'sqlite';
    if (name.includes('postgres')) return 'postgres';
  }
  return undefined;
}

/** Options of {@link requireSqlDialect}. */
export interface RequireSqlDialectOptions extends DetectSqlDialectOptions {
  /** The caller's explicit choice (a store's `dialect` option): returned as it is, nothing detected. */
  override?: SqlDialect | undefined;
  /**
   * The error to throw for a database that is neither SQLite nor PostgreSQL; receives the class
   * name of the Kysely adapter found (for example `MysqlAdapter`). Pass the store's own typed error.
   */
  unsupported: (adapter: string) => Error;
}

/**
 * The dialect a store should use: `override` when given, else the detected one; throws the
 * error made by `unsupported` for any other database.
 *
 * @example
 * ```ts
 * const dialect = requireSqlDialect(options.db, {
 *   override: options.dialect,
 *   unsupported: (adapter) => new UnsupportedDialectError({ adapter }),
 * });
 * ```
 */
export function requireSqlDialect(db: AnyKysely, options: RequireSqlDialectOptions): SqlDialect {
  if (options.override) return options.override;
  const found = detectSqlDialect(db, options);
  if (found === undefined) throw options.unsupported(db.getExecutor().adapter.constructor.name);
  return found;
}
