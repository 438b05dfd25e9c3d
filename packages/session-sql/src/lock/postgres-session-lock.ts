import type { SessionLock, SessionLockKey, SessionLockRelease } from '@adk/core';
import { SqlDriverMissingError } from '@adk/sql-kit';
import type { Client as PgClient, Notification } from 'pg';

import { namedStatement } from '../dialect/prepared-statement';
import { SessionLockClosedError } from '../errors/session-lock-closed-error';
import { sessionLockId, waitingLockId } from './lock-id';

/** Options of {@link PostgresSessionLock.open}. */
export interface PostgresSessionLockOptions {
  /** The database, `postgres://user@host:5432/db` (the sessions' database). */
  url: string;
  /**
   * Mixed into every lock id (default `''`): processes share a lock only when they use the same
   * namespace. Give one per deployment sharing a database (e.g. the sessions' schema).
   */
  namespace?: string;
  /**
   * How often a waiting turn asks again when no release notice came (default 500 ms): the bound on
   * how long a lock held by a process that died (its connection closed by PostgreSQL) goes unseen.
   */
  retryMs?: number;
  /** The LISTEN/NOTIFY channel that announces releases (default `adk_session_lock`). */
  channel?: string;
}

/** The one connection holding this process's locks; `alive` turns false when it is lost. */
interface Holder {
  readonly client: PgClient;
  alive: boolean;
}

/** The statements of the lock, prepared once per connection (named; see `namedStatement`). */
const TRY_LOCK = namedStatement(
  'adk_session_lock_try',
  'SELECT pg_try_advisory_lock($1::bigint) AS locked',
);
/**
 * Release, then tell the waiting processes, if any: a process that waits holds the lock's waiting
 * marker (`waitingLockId`) in shared mode, so taking it exclusively fails exactly when one waits.
 * `CASE` evaluates in order: the release happens before the check.
 */
const UNLOCK = namedStatement(
  'adk_session_lock_unlock',
  `SELECT CASE WHEN NOT pg_advisory_unlock($1::bigint) THEN 'not-held'
    WHEN pg_try_advisory_xact_lock($2::bigint) THEN 'alone'
    ELSE (SELECT 'notified' FROM pg_notify($3, $1::text)) END AS released`,
);
const ANNOUNCE = namedStatement(
  'adk_session_lock_announce',
  'SELECT pg_advisory_lock_shared($1::bigint)',
);
const RETRACT = namedStatement(
  'adk_session_lock_retract',
  'SELECT pg_advisory_unlock_shared($1::bigint)',
);

/**
 * A {@link SessionLock} on PostgreSQL: a session-level advisory lock per session (id: a 64-bit hash
 * of the namespace, app, user and session), all held on **one** connection of this process,
 * whatever the number of runs in flight. A process that dies, or loses the connection, loses its
 * locks with it: PostgreSQL frees a session's advisory locks when its connection ends.
 *
 * Taking a free lock costs one round trip (`pg_try_advisory_lock`); releasing, one
 * (`pg_advisory_unlock`, and a `pg_notify` on the channel only when a process waits). Both are
 * prepared statements. A turn that finds the lock held by another process marks that it waits (a
 * shared advisory lock on the session's waiting marker, which the holder checks when it releases),
 * asks again, then waits for the notice (it `LISTEN`s on the same connection) and asks again, or
 * asks again every `retryMs` (a holder that died sends no notice). Turns of one process queue in
 * arrival order; across processes the next holder is whoever asks first after the release. A
 * release nobody waits for wakes no other process.
 *
 * If the connection is lost while runs hold locks, those runs go on unprotected (the session
 * store's stale-session check still refuses a conflicting write) and the next `acquire` connects
 * again.
 *
 * @example
 * ```ts
 * const sessionLock = await PostgresSessionLock.open({ url: process.env.DATABASE_URL! });
 * const runner = new Runner({ appName: 'app', agent, sessionService, sessionLock });
 * // ... on shutdown
 * await sessionLock.close();
 * ```
 */
export class PostgresSessionLock implements SessionLock {
  readonly #url: string;
  readonly #namespace: string;
  readonly #retryMs: number;
  readonly #channel: string;
  #holder: Promise<Holder> | undefined;
  /** The connection `#holder` resolved to, while it is the current one. */
  #current: Holder | undefined;
  #closed = false;
  /** Lock id → this process's turns waiting for it (present: held in this process). */
  readonly #local = new Map<string, Array<(entered: boolean) => void>>();
  /** Lock id → turns waiting for another process's release. */
  readonly #waiting = new Map<string, Set<() => void>>();

  private constructor(options: PostgresSessionLockOptions) {
    this.#url = options.url;
    this.#namespace = options.namespace ?? '';
    this.#retryMs = options.retryMs ?? 500;
    this.#channel = options.channel ?? 'adk_session_lock';
  }

  /**
   * Connect (loading `pg`) and listen for releases.
   *
   * @throws SqlDriverMissingError when `pg` is not installed.
   */
  static async open(options: PostgresSessionLockOptions): Promise<PostgresSessionLock> {
    const lock = new PostgresSessionLock(options);
    await lock.#connect();
    return lock;
  }

  /**
   * Hold the session's lock; `undefined` when `signal` aborts first.
   *
   * @throws SessionLockClosedError after {@link close}; the driver's error when the database
   * cannot be reached.
   */
  async acquire(
    key: SessionLockKey,
    signal?: AbortSignal,
  ): Promise<SessionLockRelease | undefined> {
    if (this.#closed) throw new SessionLockClosedError();
    if (signal?.aborted) return undefined;
    const id = sessionLockId(this.#namespace, key);
    if (!(await this.#enterLocal(id, signal))) return undefined;
    let holder: Holder | undefined;
    try {
      holder = await this.#lockShared(id, signal);
    } finally {
      if (!holder) this.#leaveLocal(id);
    }
    if (!holder) return undefined;
    const owner = holder;
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      try {
        await this.#unlock(owner, id);
      } finally {
        this.#leaveLocal(id);
      }
    };
  }

  /** Stop: end the connection (freeing every lock it holds) and wake the waiting turns. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const waiters of this.#waiting.values()) for (const wake of waiters) wake();
    const holder = await this.#holder?.catch(() => undefined);
    if (holder) {
      holder.alive = false;
      await holder.client.end().catch(() => undefined);
    }
  }

  /** This process's turn on `id`: at once when free, else after the turns before it. */
  #enterLocal(id: string, signal: AbortSignal | undefined): Promise<boolean> {
    const queue = this.#local.get(id);
    if (!queue) {
      this.#local.set(id, []);
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const onAbort = (): void => {
        const index = queue.indexOf(wake);
        if (index !== -1) queue.splice(index, 1);
        resolve(false);
      };
      const wake = (entered: boolean): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve(entered);
      };
      queue.push(wake);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #leaveLocal(id: string): void {
    const next = this.#local.get(id)?.shift();
    if (next) next(true);
    else this.#local.delete(id);
  }

  /** Take the advisory lock, waiting for other processes; `undefined` when `signal` aborts. */
  async #lockShared(id: string, signal: AbortSignal | undefined): Promise<Holder | undefined> {
    // The connection on which this turn holds the waiting marker, if it does.
    let announced: Holder | undefined;
    try {
      for (;;) {
        if (signal?.aborted) return undefined;
        if (this.#closed) throw new SessionLockClosedError();
        const holder = await this.#connect();
        // Listen before asking, so a release between the two is not missed.
        const wait = this.#waitForRelease(id, signal);
        try {
          if (await this.#tryLock(holder, id)) {
            wait.cancel();
            return holder;
          }
          if (announced !== holder && holder.alive) {
            // Mark the wait, then ask once more: a holder that released before the mark was
            // taken sent no notice, but then the lock is free now.
            await holder.client.query(ANNOUNCE, [waitingLockId(id)]);
            announced = holder;
            if (await this.#tryLock(holder, id)) {
              wait.cancel();
              return holder;
            }
          }
        } catch (error) {
          wait.cancel();
          throw error;
        }
        await wait.done;
      }
    } finally {
      // Not awaited: the connection runs its queries in order, so the mark is gone before any
      // later statement of this process's locks runs, and the turn starts a round trip sooner.
      if (announced?.alive) {
        announced.client.query(RETRACT, [waitingLockId(id)]).catch(() => undefined);
      }
    }
  }

  async #tryLock(holder: Holder, id: string): Promise<boolean> {
    const result = await holder.client.query<{ locked: boolean }>(TRY_LOCK, [id]);
    return result.rows[0]?.locked === true && holder.alive;
  }

  #waitForRelease(
    id: string,
    signal: AbortSignal | undefined,
  ): { done: Promise<void>; cancel: () => void } {
    let wake!: () => void;
    const done = new Promise<void>((resolve) => {
      wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        const waiters = this.#waiting.get(id);
        waiters?.delete(wake);
        if (waiters?.size === 0) this.#waiting.delete(id);
        resolve();
      };
      const timer = setTimeout(wake, this.#retryMs);
      signal?.addEventListener('abort', wake, { once: true });
    });
    let waiters = this.#waiting.get(id);
    if (!waiters) {
      waiters = new Set();
      this.#waiting.set(id, waiters);
    }
    waiters.add(wake);
    return { done, cancel: wake };
  }

  async #unlock(holder: Holder, id: string): Promise<void> {
    // A lost connection took the lock with it.
    if (!holder.alive) return;
    try {
      await holder.client.query(UNLOCK, [id, waitingLockId(id), this.#channel]);
    } catch {
      // Could not unlock: drop the connection, which frees every lock it holds.
      this.#lost(holder);
      await holder.client.end().catch(() => undefined);
    }
  }

  #connect(): Promise<Holder> {
    if (this.#holder) return this.#holder;
    const opening = this.#openHolder();
    this.#holder = opening;
    opening.catch(() => {
      if (this.#holder === opening) this.#holder = undefined;
    });
    return opening;
  }

  async #openHolder(): Promise<Holder> {
    let Client: typeof PgClient;
    try {
      Client = (await import('pg')).default.Client;
    } catch (cause) {
      throw new SqlDriverMissingError({ packageName: 'pg', cause });
    }
    const client = new Client({
      connectionString: this.#url,
      keepAlive: true,
      application_name: 'adk-session-lock',
    });
    const holder: Holder = { client, alive: true };
    client.on('error', () => this.#lost(holder));
    client.on('end', () => this.#lost(holder));
    client.on('notification', (message: Notification) => {
      if (message.channel !== this.#channel || message.payload === undefined) return;
      const waiters = this.#waiting.get(message.payload);
      if (waiters) for (const wake of [...waiters]) wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.#channel.replaceAll('"', '""')}"`);
    } catch (error) {
      holder.alive = false;
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#current = holder;
    return holder;
  }

  /** The connection ended: its locks are gone; the next turn connects again. */
  #lost(holder: Holder): void {
    if (!holder.alive) return;
    holder.alive = false;
    if (this.#current === holder) {
      this.#current = undefined;
      this.#holder = undefined;
    }
    for (const waiters of this.#waiting.values()) for (const wake of [...waiters]) wake();
  }
}
