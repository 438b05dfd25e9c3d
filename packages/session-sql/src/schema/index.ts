export { EVENTS_INDEX, reconcileEventsIndex, sqliteEventsTable } from './events-index';
export { checkSchema, migrateSessionSchema } from './migrate';
export { sessionMigrations } from './migrations';
export {
  SCHEMA_VERSION,
  type AppStatesTable,
  type EventsTable,
  type MetadataTable,
  type SessionDatabase,
  type SessionsTable,
  type UserStatesTable,
} from './tables';
