/**
 * `@adk/session-sql`: the ADK session store over SQL (SQLite and PostgreSQL through Kysely).
 */
export * from './errors';
export * from './service';
export {
  SCHEMA_VERSION,
  sessionMigrations,
  type AppStatesTable,
  type EventsTable,
  type MetadataTable,
  type SessionDatabase,
  type SessionsTable,
  type UserStatesTable,
} from './schema';
export type { DialectKind } from './dialect';
export * from './lock';
