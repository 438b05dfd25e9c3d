import type { SessionLock, SessionLockKey, SessionLockRelease } from './session-lock';

/**
 * Runs on one session take turns: each key (one session) has at most one holder; later callers
 * wait in arrival order. A key with a holder and nobody waiting costs one `Map` entry.
 */
export class SessionTurns {
  /** Key → callers waiting for it (`undefined`: held, nobody waiting). Absent: free. */
  readonly #held = new Map<string, Array<(acquired: boolean) => void> | undefined>();

  /**
   * Take the turn on `key`: `true` at once when it is free, otherwise a promise that resolves to
   * `true` when the turn comes, or to `false` when `signal` aborts first (the caller then never
   * holds the turn and must not call {@link leave}).
   */
  enter(key: string, signal: AbortSignal | undefined): true | Promise<boolean> {
    if (!this.#held.has(key)) {
      this.#held.set(key, undefined);
      return true;
    }
    let waiting = this.#held.get(key);
    if (waiting === undefined) {
      waiting = [];
      this.#held.set(key, waiting);
    }
    const queue = waiting;
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        const index = queue.indexOf(wake);
        if (index !== -1) queue.splice(index, 1);
        resolve(false);
      };
      const wake = (acquired: boolean): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(acquired);
      };
      queue.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Give the turn on `key` to the next waiting caller, or free it. */
  leave(key: string): void {
    const next = this.#held.get(key)?.shift();
    if (next === undefined) this.#held.delete(key);
    else next(true);
  }
}

/**
 * What a run or a resume holds on its session while it lasts: its turn in this process and, with
 * a {@link SessionLock}, the lock shared with the other processes. Taken by {@link holdSession},
 * given back by {@link SessionHold.leave}.
 */
export class SessionHold {
  constructor(
    private readonly turns: SessionTurns,
    private readonly key: string,
    private readonly release: SessionLockRelease | undefined,
  ) {}

  /**
   * Give the session back: the shared lock first (when held), then the turn, which is left even
   * when releasing the lock fails (that error is then thrown). `undefined` when nothing is left
   * to wait for (no shared lock): the turn is free again on return.
   */
  leave(): Promise<void> | undefined {
    if (this.release === undefined) {
      this.turns.leave(this.key);
      return undefined;
    }
    return releaseThenLeave(this.release, this.turns, this.key);
  }
}

async function releaseThenLeave(
  release: SessionLockRelease,
  turns: SessionTurns,
  key: string,
): Promise<void> {
  try {
    await release();
  } finally {
    turns.leave(key);
  }
}

/**
 * Take the session for one run or resume: its turn among the runs of this process (waiting in
 * arrival order), then, with a `lock`, the lock shared with other processes. The hold at once
 * (no promise) when the turn is free and there is no shared lock, the common case; otherwise a
 * promise of it. `undefined` when `signal` aborted while waiting (or the lock was not obtained):
 * nothing is held then. Give it back with {@link SessionHold.leave} when the run ends.
 */
export function holdSession(
  turns: SessionTurns,
  lock: SessionLock | undefined,
  session: SessionLockKey,
  signal: AbortSignal | undefined,
): SessionHold | Promise<SessionHold | undefined> {
  const key = `${session.userId}\u0000${session.sessionId}`;
  const turn = turns.enter(key, signal);
  if (turn === true && lock === undefined) return new SessionHold(turns, key, undefined);
  return holdAfterWaiting(turns, lock, session, signal, key, turn);
}

async function holdAfterWaiting(
  turns: SessionTurns,
  lock: SessionLock | undefined,
  session: SessionLockKey,
  signal: AbortSignal | undefined,
  key: string,
  turn: true | Promise<boolean>,
): Promise<SessionHold | undefined> {
  if (turn !== true && !(await turn)) return undefined;
  if (lock === undefined) return new SessionHold(turns, key, undefined);
  let release: SessionLockRelease | undefined;
  try {
    release = await lock.acquire(session, signal);
  } finally {
    // The lock failed or was not obtained (aborted): the turn goes to the next run.
    if (release === undefined) turns.leave(key);
  }
  return release === undefined ? undefined : new SessionHold(turns, key, release);
}
