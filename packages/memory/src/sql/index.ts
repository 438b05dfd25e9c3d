export type { AnyKysely, SqlDialect as SqlDialectName } from '@adk/sql-kit';
export { SqlMemoryService, type SqlMemoryServiceOptions } from './sql-memory-service';
