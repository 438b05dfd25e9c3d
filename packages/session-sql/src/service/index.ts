export { createSessionService } from './create-session-service';
export { parseDatabaseUrl, type DatabaseUrl } from './open-database';
export {
  SqlSessionService,
  type SqlSessionServiceOptions,
  type SqlSessionServiceUrlOptions,
} from './sql-session-service';
