export { loadSqliteVec, type ExtensionLoadingDatabase } from './load-sqlite-vec';
export { SqlVectorStore, type SqlVectorStoreOptions } from './sql-vector-store';
