export { KyselyMigratorMissingError } from './kysely-migrator-missing-error';
export { runMigrations, type RunMigrationsOptions } from './run-migrations';
export {
  checkSchemaVersion,
  readSchemaVersion,
  type SchemaVersioning,
  type SchemaVersionLocation,
  type SchemaVersionProblem,
} from './schema-versioning';
export type { SqlMigration, SqlMigrationProvider } from './sql-migration';
export { onceUntilFailure } from './once-until-failure';
export { storeTables, type StoreTables, type StoreTablesOptions } from './store-tables';
