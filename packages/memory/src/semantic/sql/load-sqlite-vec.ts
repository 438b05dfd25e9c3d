/** What `sqlite-vec`'s `load` needs: a better-sqlite3 `Database` (or anything with `loadExtension`). */
export interface ExtensionLoadingDatabase {
  loadExtension(file: string, entryPoint?: string): unknown;
}

/**
 * Loads the sqlite-vec extension (the optional peer `sqlite-vec`, whose npm package ships the
 * compiled extension for Linux, macOS and Windows) into a better-sqlite3 database. Returns
 * `false`, changing nothing, when the package is not installed or its extension does not load
 * on this platform; `SqlVectorStore` then searches exactly.
 *
 * @example
 * ```ts
 * const database = new Database('memory.db');
 * const vec = await loadSqliteVec(database); // true: SqlVectorStore's searchPath is `sqlite-vec`
 * ```
 */
export async function loadSqliteVec(database: ExtensionLoadingDatabase): Promise<boolean> {
  try {
    const specifier = 'sqlite-vec';
    const module = (await import(specifier)) as { load(db: ExtensionLoadingDatabase): void };
    module.load(database);
    return true;
  } catch {
    return false;
  }
}
