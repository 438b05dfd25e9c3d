export { sessionLockId } from './lock-id';
export { PostgresSessionLock, type PostgresSessionLockOptions } from './postgres-session-lock';
