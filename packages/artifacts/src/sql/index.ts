export type { AnyKysely, SqlDialectName } from './dialect';
export { SqlArtifactService, type SqlArtifactServiceOptions } from './sql-artifact-service';
