export type { AnyKysely, SqlDialect as SqlDialectName } from '@adk/sql-kit';
export { SqlArtifactService, type SqlArtifactServiceOptions } from './sql-artifact-service';
