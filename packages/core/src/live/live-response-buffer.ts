import { InvalidArgumentError } from '../errors/invalid-argument-error';

/** Options of {@link LiveResponseBuffer}. */
export interface LiveResponseBufferOptions {
  /** Items waiting for the reader at which `onHigh` fires (the socket should pause). */
  highWaterMark?: number;
  /** Items waiting at which, after `onHigh`, `onLow` fires (default: half the high mark). */
  lowWaterMark?: number;
  onHigh?: () => void;
  onLow?: () => void;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * @internal The key of a buffer's direct reader (`buffer[DIRECT_READER](take)`, `undefined` to
 * remove it): while the reader's `next()` waits, `push` first offers each item to `take`, which
 * handles it synchronously and returns `true`, or returns `false` to have it delivered through
 * `next()` as usual. The live runner reads an audio chunk this way: no promise resolution between
 * the provider's socket and the run. Not exported from the package.
 */
export const DIRECT_READER = Symbol('adk.liveResponseBuffer.directReader');

/**
 * What a live connection's socket handlers received, waiting for the connection's one reader: the
 * value `LiveConnection.receive()` returns. Handlers `push` items, then `end` it (a clean close)
 * or `fail` it (the error is thrown to the reader after the items pushed before it).
 *
 * The reader's `next()` is resolved from `push` itself, with no generator in between: on the
 * live path every audio chunk goes through here. Only one reader: a second iteration's first
 * `next()` rejects with `InvalidArgumentError`. `onHigh` / `onLow` fire when the backlog reaches
 * `highWaterMark` and later drains to `lowWaterMark`, so the socket can pause while the reader
 * is slow.
 *
 * @example
 * ```ts
 * const responses = new LiveResponseBuffer<LlmResponse>({
 *   highWaterMark: 1024,
 *   onHigh: () => socket.pause(),
 *   onLow: () => socket.resume(),
 * });
 * socket.on('message', (data) => responses.push(toResponse(data)));
 * socket.on('close', () => responses.end());
 * // receive() { return responses; }
 * ```
 */
export class LiveResponseBuffer<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #head = 0;
  #ended = false;
  #failure: { error: unknown } | undefined;
  #reading = false;
  /** The reader's pending `next()`, when it waits. */
  #waiting:
    | { resolve: (result: IteratorResult<T, undefined>) => void; reject: (error: unknown) => void }
    | undefined;
  /** See {@link DIRECT_READER}. */
  #direct: ((item: T) => boolean) | undefined;
  #paused = false;
  readonly #high: number;
  readonly #low: number;
  readonly #onHigh: (() => void) | undefined;
  readonly #onLow: (() => void) | undefined;

  constructor(options: LiveResponseBufferOptions = {}) {
    this.#high = options.highWaterMark ?? Number.POSITIVE_INFINITY;
    this.#low = options.lowWaterMark ?? this.#high / 2;
    this.#onHigh = options.onHigh;
    this.#onLow = options.onLow;
  }

  /** Whether `end` or `fail` was called. */
  get finished(): boolean {
    return this.#ended;
  }

  /** Items waiting for the reader. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  /** Hand `item` to the reader (at once if it waits). Ignored after `end` / `fail`. */
  push(item: T): void {
    if (this.#ended) return;
    const waiting = this.#waiting;
    if (waiting) {
      const direct = this.#direct;
      if (direct) {
        try {
          if (direct(item)) return;
        } catch (error) {
          // As if reading it had failed: the reader gets the error.
          this.fail(error);
          return;
        }
        // Not taken (nothing was done with it); ignored if taking it ended the buffer.
        if (this.#waiting !== waiting) return;
      }
      this.#waiting = undefined;
      waiting.resolve({ done: false, value: item });
      return;
    }
    this.#items.push(item);
    if (!this.#paused && this.size >= this.#high) {
      this.#paused = true;
      this.#onHigh?.();
    }
  }

  /** No more items: the reader finishes after the waiting ones. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    const waiting = this.#waiting;
    if (!waiting) return;
    this.#waiting = undefined;
    const failure = this.#failure;
    this.#failure = undefined;
    if (failure) waiting.reject(failure.error);
    else waiting.resolve(DONE);
  }

  /** Ends with `error`, thrown to the reader after the waiting items (first end or failure wins). */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#failure = { error };
    this.end();
  }

  /** @internal See {@link DIRECT_READER}. */
  [DIRECT_READER](take: ((item: T) => boolean) | undefined): void {
    this.#direct = take;
  }

  [Symbol.asyncIterator](): AsyncIterator<T, undefined> {
    if (this.#reading) {
      const error = new InvalidArgumentError({
        argument: 'receive',
        message: 'A live connection has one reader: receive() was already called.',
      });
      return {
        next: () => Promise.reject(error),
        return: () => Promise.resolve(DONE),
      };
    }
    this.#reading = true;
    return {
      next: () => this.#next(),
      // The reader stopped: nothing more is kept for it.
      return: () => {
        this.#ended = true;
        this.#direct = undefined;
        this.#items = [];
        this.#head = 0;
        return Promise.resolve(DONE);
      },
    };
  }

  #next(): Promise<IteratorResult<T, undefined>> {
    if (this.#head < this.#items.length)
      return Promise.resolve({ done: false, value: this.#take() });
    if (this.#ended) {
      if (!this.#failure) return Promise.resolve(DONE);
      const { error } = this.#failure;
      // Thrown once; the reader is done after it.
      this.#failure = undefined;
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
    });
  }

  #take(): T {
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined as T;
    this.#head += 1;
    if (this.#head === this.#items.length) {
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items.splice(0, this.#head);
      this.#head = 0;
    }
    if (this.#paused && this.size <= this.#low) {
      this.#paused = false;
      this.#onLow?.();
    }
    return item;
  }
}
