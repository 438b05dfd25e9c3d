import { createHash } from 'node:crypto';

import type { SessionLockKey } from '@adk/core';

/**
 * The advisory lock id of a session: the first 8 bytes of a SHA-256 of the namespace and the
 * session's key, as a signed 64-bit decimal (PostgreSQL's `bigint`). Distinct sessions share an
 * id with a probability of about n²/2⁶⁵; a shared id only makes their turns wait for each other.
 */
export function sessionLockId(namespace: string, key: SessionLockKey): string {
  const digest = createHash('sha256')
    .update(`${namespace}\u0000${key.appName}\u0000${key.userId}\u0000${key.sessionId}`)
    .digest();
  return digest.readBigInt64BE(0).toString();
}

/**
 * The id of the advisory lock a process waiting for lock `id` holds in shared mode while it waits:
 * the holder sends a release notice only when someone holds it (see `PostgresSessionLock`).
 */
export function waitingLockId(id: string): string {
  return createHash('sha256').update(`waiting\u0000${id}`).digest().readBigInt64BE(0).toString();
}
