/**
 * Real databases for the SQL packages' tests: SQLite files in temporary directories and a
 * PostgreSQL schema per test file on the test server, skipped with a notice when the server is
 * unreachable (except under `CI=true`, where that fails), and the same probe for the test Redis
 * with a key prefix per test file. Never for production.
 */
export { POSTGRES_URL } from './postgres-url';
export { postgresUnavailable } from './postgres-unavailable';
export { createPostgresSchema, dropPostgresSchema, postgresSchemaName } from './postgres-schema';
export {
  openPgvectorDatabase,
  PGVECTOR_DATABASE,
  type PgvectorTestDatabase,
} from './postgres-pgvector';
export { postgresKysely, type PostgresKyselyOptions } from './postgres-kysely';
export { sqliteKysely, type SqliteKyselyOptions } from './sqlite-kysely';
export { temporaryDirectory, type TemporaryDirectory } from './temporary-directory';
export {
  openTestDatabases,
  postgresDatabase,
  sqliteDatabase,
  type TestDatabase,
  type TestDatabases,
} from './test-database';
export { REDIS_URL, dropRedisPrefix, redisPrefix, redisUnavailable } from './redis';
export { ProcessRace, serveRaceRounds, type RaceReply } from './process-race';
export { bundledScript } from './bundled-script';
