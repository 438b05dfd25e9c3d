/**
 * `@adk/a2a/sql`: A2A tasks and push-notification configs in SQLite or PostgreSQL (needs `kysely`
 * and a driver), for `createA2aServer({ taskStore, pushNotifications: { store } })`.
 */
export {
  createA2aSqlStores,
  type A2aSqlStores,
  type A2aSqlStoresOptions,
} from './create-a2a-sql-stores';
export {
  A2A_PUSH_CONFIGS_TABLE,
  A2A_TASKS_TABLE,
  a2aTableMigrations,
  type A2aTablesLocation,
} from './a2a-sql-migrations';
