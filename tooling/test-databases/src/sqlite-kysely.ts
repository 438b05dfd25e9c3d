import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type KyselyPlugin } from 'kysely';

/** Options of {@link sqliteKysely}. */
export interface SqliteKyselyOptions {
  /** Kysely plugins (e.g. a query recorder). */
  plugins?: KyselyPlugin[];
  /**
   * WAL journal with a 5 s busy timeout, as `SqlSessionService.fromUrl` opens a file, so that
   * several connections (or processes) can share it. Off unless told.
   */
  wal?: boolean;
}

/** A Kysely over the SQLite file at `path` (created when missing). The caller destroys it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema unless told
export function sqliteKysely<DB = any>(
  path: string,
  options: SqliteKyselyOptions = {},
): Kysely<DB> {
  const database = new SQLite(path);
  if (options.wal) {
    database.pragma('journal_mode = WAL');
    database.pragma('busy_timeout = 5000');
  }
  return new Kysely<DB>({
    dialect: new SqliteDialect({ database }),
    plugins: options.plugins ?? [],
  });
}
