import type { Event } from '@adk/core';

import type { LoadedUpTo, SessionKey } from '../dialect';

/** What the service last read of one session. */
export interface LoadedEvents {
  /** `sessions.create_time` when read (ms). */
  createTime: number;
  /** Every event of the session, in append order (frozen events; the array is never handed out). */
  events: Event[];
  /** The append order and id of the last of `events`. */
  upTo: LoadedUpTo;
}

const keyOf = (key: SessionKey) => `${key.appName}\u0000${key.userId}\u0000${key.sessionId}`;

/**
 * The events the service last read of its most recently read sessions, so that the next full
 * `getSession` of one of them reads only the events appended since (a runner reads its session at
 * every turn). Bounded: at most `capacity` sessions, the least recently read dropped first; their
 * events are the frozen objects the service hands out anyway, shared, not copies.
 */
export class LoadedSessions {
  readonly #entries = new Map<string, LoadedEvents>();

  constructor(readonly capacity: number) {}

  get(key: SessionKey): LoadedEvents | undefined {
    const name = keyOf(key);
    const entry = this.#entries.get(name);
    if (entry === undefined) return undefined;
    this.#entries.delete(name);
    this.#entries.set(name, entry);
    return entry;
  }

  set(key: SessionKey, entry: LoadedEvents): void {
    if (this.capacity <= 0) return;
    const name = keyOf(key);
    this.#entries.delete(name);
    this.#entries.set(name, entry);
    while (this.#entries.size > this.capacity) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(key: SessionKey): void {
    this.#entries.delete(keyOf(key));
  }

  /** How many sessions are held. */
  get size(): number {
    return this.#entries.size;
  }
}
