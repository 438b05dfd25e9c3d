export { createSessionService } from './create-session-service';
export { parseDatabaseUrl, type DatabaseUrl } from '@adk/sql-kit';
export type { SqlSessionServiceOptions, SqlSessionServiceUrlOptions } from './options';
export { SqlSessionService } from './sql-session-service';
