export { runMigrations, type RunMigrationsOptions } from './run-migrations';
export {
  checkSchemaVersion,
  readSchemaVersion,
  type SchemaVersioning,
  type SchemaVersionLocation,
  type SchemaVersionProblem,
} from './schema-versioning';
