/**
 * `@adk/sql-kit`: the support code every SQL-backed ADK store shares, over the caller's Kysely
 * instance (SQLite or PostgreSQL): dialect detection, the SQLite write lock and WAL switch, the
 * PostgreSQL `schema` option, and a migration runner with a schema version check.
 */
export * from './dialect';
export * from './migrations';
export * from './postgres';
export * from './sqlite';
