export type { AnyKysely, SqlDialectName } from './dialect';
export { SqlMemoryService, type SqlMemoryServiceOptions } from './sql-memory-service';
