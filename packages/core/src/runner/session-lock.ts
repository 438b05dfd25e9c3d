/** Which session a {@link SessionLock} locks. */
export interface SessionLockKey {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
}

/**
 * Gives the lock back. Called once, when the run that held it ends (completed, failed, aborted or
 * closed early). It must not reject: an implementation that cannot unlock cleanly drops whatever
 * holds the lock (for PostgreSQL, the connection), which frees it.
 */
export type SessionLockRelease = () => Promise<void>;

/**
 * A lock on one session shared by every process that runs turns on the same sessions (several
 * server instances and workers on one database): with it, a {@link Runner} holds the session's
 * lock for the whole of a run, resume or live run, so a second turn on the session started on another
 * instance waits for the first instead of failing with `STALE_SESSION`.
 *
 * The Runner takes its own in-process turn first (the fast path: runs of one session in one
 * process queue without asking the lock), then the shared lock; so a process asks for at most one
 * lock per session at a time. Implementation: `PostgresSessionLock` of `@adk/session-sql`
 * (advisory locks, freed when the holder's connection ends).
 *
 * Contract: `acquire` resolves with a release function once the caller holds the lock, or with
 * `undefined` when `signal` aborts first (the caller then holds nothing). It rejects only when the
 * lock cannot be asked for at all (database unreachable); the run then fails with that error. A
 * lock held by a process that dies must become free by itself (connection closed, lease expired).
 *
 * @example
 * ```ts
 * const runner = new Runner({ appName: 'app', agent, sessionService, sessionLock });
 * ```
 */
export interface SessionLock {
  acquire(key: SessionLockKey, signal?: AbortSignal): Promise<SessionLockRelease | undefined>;
}
