/**
 * The responses of one live connection waiting for their reader: pushed by socket handlers, read
 * by one `for await`. It ends cleanly (`end`) or with an error (`fail`, thrown to the reader after
 * the responses queued before it). `onHigh` / `onLow` fire when the backlog crosses
 * `highWaterMark` / drains to half of it, so the socket can pause while the reader is slow.
 */
export class LiveResponseQueue<T> {
  readonly #items: T[] = [];
  #head = 0;
  #ended = false;
  #error: unknown;
  #failed = false;
  #wake: (() => void) | undefined;
  #paused = false;
  readonly #highWaterMark: number;
  readonly #onHigh: () => void;
  readonly #onLow: () => void;

  constructor(options: { highWaterMark: number; onHigh: () => void; onLow: () => void }) {
    this.#highWaterMark = options.highWaterMark;
    this.#onHigh = options.onHigh;
    this.#onLow = options.onLow;
  }

  /** Whether `end` or `fail` was called. */
  get finished(): boolean {
    return this.#ended;
  }

  push(item: T): void {
    if (this.#ended) return;
    this.#items.push(item);
    if (!this.#paused && this.#items.length - this.#head >= this.#highWaterMark) {
      this.#paused = true;
      this.#onHigh();
    }
    this.#notify();
  }

  /** No more items: the reader finishes after the queued ones. Idempotent. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#notify();
  }

  /** Ends with `error`, thrown to the reader after the queued items (first failure wins). */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#failed = true;
    this.#error = error;
    this.end();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void> {
    for (;;) {
      if (this.#head < this.#items.length) {
        const item = this.#items[this.#head] as T;
        this.#items[this.#head] = undefined as T;
        this.#head += 1;
        if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
          this.#items.splice(0, this.#head);
          this.#head = 0;
        }
        if (this.#paused && this.#items.length - this.#head <= this.#highWaterMark / 2) {
          this.#paused = false;
          this.#onLow();
        }
        yield item;
        continue;
      }
      if (this.#ended) {
        if (this.#failed) throw this.#error;
        return;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
