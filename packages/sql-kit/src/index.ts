/**
 * `@adk/sql-kit`: the support code every SQL-backed ADK store shares, over the caller's Kysely
 * instance (SQLite or PostgreSQL): dialect detection, opening a database from a URL, where a
 * store's tables live (the PostgreSQL `schema` option), JSON and time columns, the SQLite write
 * lock and WAL switch, retrying a lost insert race, and a migration runner with a schema version
 * check.
 */
export * from './columns';
export * from './connect';
export * from './dialect';
export * from './location';
export * from './migrations';
export * from './postgres';
export * from './sqlite';
