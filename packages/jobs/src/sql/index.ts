export { detectJobDialect, type AnyKysely, type JobDialect } from './dialect';
export { checkJobSchema, migrateJobTables, readJobSchemaVersion } from './migrations';
export { SqlJobStore, type SqlJobStoreOptions } from './sql-job-store';
export {
  JOB_SCHEMA_VERSION,
  JOBS_TABLE,
  METADATA_TABLE,
  type JobDatabase,
  type JobRow,
  type JobTable,
} from './tables';
