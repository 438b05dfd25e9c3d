import { approximateEventBytes, type Event } from '@adk/core';

import type { LoadedUpTo, SessionKey } from '../dialect';

/** What the service last read of one session. */
export interface LoadedEvents {
  /** `sessions.create_time` when read (ms). */
  createTime: number;
  /** Every event of the session, in append order (frozen events; the array is never handed out). */
  events: Event[];
  /** The append order and id of the last of `events`. */
  upTo: LoadedUpTo;
  /** About how much heap `events` keeps alive (see `approximateEventBytes` of `@adk/core`). */
  bytes: number;
}

/**
 * The bytes `events` are counted for: the events, and the array's slot for each. Counting stops
 * once the sum passes `limit` (a sum above the budget only says "too large to keep", and estimating
 * the rest of a long session's fresh events would cost as much as decoding them).
 */
export function loadedBytes(events: readonly Event[], limit = Infinity): number {
  let bytes = 8 * events.length;
  for (const event of events) {
    if (bytes > limit) return bytes;
    bytes += approximateEventBytes(event);
  }
  return bytes;
}

const keyOf = (key: SessionKey) => `${key.appName}\u0000${key.userId}\u0000${key.sessionId}`;

/**
 * The events the service last read of its most recently read sessions, so that the next full
 * `getSession` of one of them reads only the events appended since (a runner reads its session at
 * every turn). Bounded twice: at most `capacity` sessions, and about `maxBytes` of heap over all
 * of them (a session larger than that on its own is not kept); the least recently read are dropped
 * first. The events are the frozen objects the service hands out anyway, shared, not copies.
 */
export class LoadedSessions {
  readonly #entries = new Map<string, LoadedEvents>();
  #bytes = 0;

  constructor(
    readonly capacity: number,
    readonly maxBytes: number,
  ) {}

  get(key: SessionKey): LoadedEvents | undefined {
    const name = keyOf(key);
    const entry = this.#entries.get(name);
    if (entry === undefined) return undefined;
    this.#entries.delete(name);
    this.#entries.set(name, entry);
    return entry;
  }

  set(key: SessionKey, entry: LoadedEvents): void {
    this.delete(key);
    if (this.capacity <= 0 || entry.bytes > this.maxBytes) return;
    this.#entries.set(keyOf(key), entry);
    this.#bytes += entry.bytes;
    this.#evict();
  }

  /**
   * Append `event` (just stored, at append order `upTo`) to `entry`, the one held for `key`, and
   * drop the least recently read sessions if the bound is passed.
   */
  extend(key: SessionKey, entry: LoadedEvents, event: Event, upTo: LoadedUpTo): void {
    if (this.#entries.get(keyOf(key)) !== entry) return;
    const bytes = 8 + approximateEventBytes(event);
    entry.events.push(event);
    entry.upTo = upTo;
    entry.bytes += bytes;
    this.#bytes += bytes;
    if (entry.bytes > this.maxBytes) this.delete(key);
    else this.#evict();
  }

  delete(key: SessionKey): void {
    const name = keyOf(key);
    const entry = this.#entries.get(name);
    if (entry === undefined) return;
    this.#entries.delete(name);
    this.#bytes -= entry.bytes;
  }

  /** How many sessions are held. */
  get size(): number {
    return this.#entries.size;
  }

  /** About how many bytes of heap the held events keep alive. */
  get bytes(): number {
    return this.#bytes;
  }

  #evict(): void {
    while (this.#entries.size > this.capacity || this.#bytes > this.maxBytes) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) return;
      this.#bytes -= this.#entries.get(oldest)!.bytes;
      this.#entries.delete(oldest);
    }
  }
}
