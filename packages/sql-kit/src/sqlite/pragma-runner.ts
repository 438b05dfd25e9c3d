/**
 * A SQLite connection that runs pragmas, as better-sqlite3's `Database` does (the kit does not
 * depend on a driver).
 */
export interface SqlitePragmaRunner {
  /** Run `PRAGMA <source>`; with `simple`, return the first column of the first row. */
  pragma(source: string, options?: { simple?: boolean }): unknown;
}
