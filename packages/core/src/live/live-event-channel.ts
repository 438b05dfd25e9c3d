import type { Event } from '../events';

/** One event waiting to be stored and yielded, with what to do once it is stored. */
export interface LiveChannelItem {
  event: Event;
  /** Called by the consumer right after the event was committed (stored unless partial). */
  afterCommit?: (stored: Event) => void;
}

/**
 * The events of a live run's concurrent producers (the model receiver, tool calls, the user's
 * text turns), in arrival order, for the one consumer that stores and yields them. Bounded: a
 * producer's `push` waits while more than `capacity` events are waiting, so a slow consumer
 * slows the model receiver instead of growing memory. `end` / `fail` wake everyone.
 */
export class LiveEventChannel {
  readonly #items: LiveChannelItem[] = [];
  readonly #writers: Array<() => void> = [];
  #reader: (() => void) | undefined;
  #ended = false;
  #failure: { error: unknown } | undefined;

  constructor(readonly capacity: number) {}

  /** Whether `end` or `fail` was called. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Queue `item` now (order is call order). Returns a promise to wait on while the channel is
   * over capacity, else `undefined` (no promise per event on the hot path).
   */
  push(item: LiveChannelItem): Promise<void> | undefined {
    if (this.#ended) return undefined;
    this.#items.push(item);
    this.#wakeReader();
    return this.#items.length > this.capacity ? this.#room() : undefined;
  }

  async #room(): Promise<void> {
    while (this.#items.length > this.capacity && !this.#ended) {
      await new Promise<void>((resolve) => this.#writers.push(resolve));
    }
  }

  /** No more items: the consumer ends after the waiting ones. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#wakeAll();
  }

  /** Stop with `error`: the consumer throws it after the waiting items (first failure wins). */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#failure = { error };
    this.end();
  }

  /** The next item; `undefined` once ended and drained. Throws the failure, if any, at the end. */
  async next(): Promise<LiveChannelItem | undefined> {
    for (;;) {
      const item = this.#items.shift();
      if (item) {
        if (this.#items.length <= this.capacity) this.#writers.shift()?.();
        return item;
      }
      if (this.#ended) {
        if (this.#failure) throw this.#failure.error;
        return undefined;
      }
      await new Promise<void>((resolve) => {
        this.#reader = resolve;
      });
    }
  }

  #wakeReader(): void {
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.();
  }

  #wakeAll(): void {
    this.#wakeReader();
    for (const wake of this.#writers.splice(0)) wake();
  }
}
