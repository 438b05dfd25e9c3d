export { detectDialect } from './detect-dialect';
export type { DialectKind, DialectOps, ScopeKey, SessionDb, SessionKey } from './dialect-ops';
export { postgresOps } from './postgres-ops';
export { sqliteOps } from './sqlite-ops';
