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
  /** The consumer's pending `next()`, when it waits: `push` hands it the item directly. */
  #reader:
    | { resolve: (item: LiveChannelItem | undefined) => void; reject: (error: unknown) => void }
    | undefined;
  #ended = false;
  #failure: { error: unknown } | undefined;
  /**
   * The consumer's synchronous form, while it waits: offered each item first; returns `true`
   * when it handled the item in full (the consumer then keeps waiting), `false` to get it from
   * `next()` as usual. Items reach it only when nothing is queued and the consumer waits, so
   * it sees them in order with the rest.
   */
  sink: ((item: LiveChannelItem) => boolean) | undefined;

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
    const reader = this.#reader;
    if (reader) {
      const sink = this.sink;
      if (sink) {
        try {
          if (sink(item)) return undefined;
        } catch (error) {
          this.fail(error);
          return undefined;
        }
        // Not taken; ignored if taking it ended the channel.
        if (this.#reader !== reader) return undefined;
      }
      this.#reader = undefined;
      reader.resolve(item);
      return undefined;
    }
    this.#items.push(item);
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

  /**
   * The next item if one is waiting, else `undefined` (then use {@link next}): no promise when
   * the consumer keeps up with bursts.
   */
  take(): LiveChannelItem | undefined {
    const item = this.#items.shift();
    if (item && this.#writers.length > 0 && this.#items.length <= this.capacity) {
      this.#writers.shift()?.();
    }
    return item;
  }

  /** The next item; `undefined` once ended and drained. Throws the failure, if any, at the end. */
  next(): Promise<LiveChannelItem | undefined> {
    const item = this.take();
    if (item) return Promise.resolve(item);
    if (this.#ended) {
      return this.#failure ? Promise.reject(this.#failure.error) : Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
      this.#reader = { resolve, reject };
    });
  }

  #wakeReader(): void {
    const reader = this.#reader;
    if (!reader) return;
    this.#reader = undefined;
    if (this.#failure) reader.reject(this.#failure.error);
    else reader.resolve(undefined);
  }

  #wakeAll(): void {
    this.#wakeReader();
    for (const wake of this.#writers.splice(0)) wake();
  }
}
