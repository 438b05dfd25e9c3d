import type { SessionLockKey } from '@adk/core';
import { advisoryLockId } from '@adk/sql-kit';

/**
 * The advisory lock id of a session: {@link advisoryLockId} of the namespace and the session's
 * key (the first 8 bytes of their SHA-256, as PostgreSQL's `bigint`). Distinct sessions share an
 * id with a probability of about n²/2⁶⁵; a shared id only makes their turns wait for each other.
 */
export function sessionLockId(namespace: string, key: SessionLockKey): string {
  return advisoryLockId(
    `${namespace}\u0000${key.appName}\u0000${key.userId}\u0000${key.sessionId}`,
  );
}

/**
 * The id of the advisory lock a process waiting for lock `id` holds in shared mode while it waits:
 * the holder sends a release notice only when someone holds it (see `PostgresSessionLock`).
 */
export function waitingLockId(id: string): string {
  return advisoryLockId(`waiting\u0000${id}`);
}
