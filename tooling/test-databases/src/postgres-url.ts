/**
 * The PostgreSQL server the tests use (trust auth, database `test`), overridable with
 * `ADK_TEST_POSTGRES_URL`.
 */
export const POSTGRES_URL =
  process.env.ADK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
