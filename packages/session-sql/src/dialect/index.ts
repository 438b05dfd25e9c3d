export type {
  AppendOutcome,
  AppendResult,
  AppendPlan,
  DialectKind,
  DialectOps,
  EventRow,
  EventWindow,
  LoadedSession,
  LoadedUpTo,
  ScopeKey,
  SessionDb,
  SessionKey,
  SessionScopesRow,
} from './dialect-ops';
export { postgresOps } from './postgres-ops';
export { selectSessionsWithScopes } from './session-query';
export { sqliteOps } from './sqlite-ops';
