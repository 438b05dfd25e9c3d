import type { Blob, Content } from '../content';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { LiveRequestQueueClosedError } from '../errors/live-request-queue-closed-error';
import type { LiveRequest } from './live-request';

/** Options of {@link LiveRequestQueue}. */
export interface LiveRequestQueueOptions {
  /**
   * Requests held before senders wait (default 256: about 5 s of 20 ms audio chunks). A full
   * queue makes `send` wait and `trySend` return `false`, so a slow model connection slows the
   * producer instead of growing memory.
   */
  capacity?: number;
}

/** Default {@link LiveRequestQueueOptions.capacity}. */
export const DEFAULT_LIVE_REQUEST_QUEUE_CAPACITY = 256;

/**
 * The user side of a live run: the caller sends text, audio / video chunks and activity signals;
 * `Runner.runLive` reads them, in order, and forwards them to the model's live connection.
 *
 * Bounded: at most `capacity` requests wait; beyond that `send` waits for room. One consumer
 * (the run) iterates it; iteration ends after the `close` request.
 *
 * @example
 * ```ts
 * const queue = new LiveRequestQueue();
 * await queue.sendRealtime({ mimeType: 'audio/pcm;rate=16000', data: base64Chunk });
 * queue.close();
 * ```
 */
export class LiveRequestQueue implements AsyncIterable<LiveRequest> {
  readonly capacity: number;
  readonly #items: LiveRequest[] = [];
  #head = 0;
  #closed = false;
  #reader: (() => void) | undefined;
  readonly #writers: Array<() => void> = [];

  constructor(options: LiveRequestQueueOptions = {}) {
    const capacity = options.capacity ?? DEFAULT_LIVE_REQUEST_QUEUE_CAPACITY;
    if (!Number.isInteger(capacity) || capacity < 1) {
      throw new InvalidArgumentError({
        message: `LiveRequestQueue capacity must be an integer >= 1, got ${String(capacity)}.`,
        argument: 'capacity',
      });
    }
    this.capacity = capacity;
  }

  /** Requests waiting to be read. */
  get size(): number {
    return this.#items.length - this.#head;
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * Queue `request`, waiting while the queue is full.
   *
   * @throws LiveRequestQueueClosedError after `close()`.
   */
  async send(request: LiveRequest): Promise<void> {
    while (!this.trySend(request)) {
      if (this.#closed) throw new LiveRequestQueueClosedError();
      await new Promise<void>((resolve) => this.#writers.push(resolve));
    }
  }

  /**
   * Queue `request` if there is room; `false` when the queue is full.
   *
   * @throws LiveRequestQueueClosedError after `close()`.
   */
  trySend(request: LiveRequest): boolean {
    if (this.#closed) throw new LiveRequestQueueClosedError();
    if (this.size >= this.capacity) return false;
    this.#push(request);
    return true;
  }

  /** Send a whole text turn (or any content); the model answers it. */
  sendContent(content: Content): Promise<void> {
    return this.send({ content });
  }

  /** Send a realtime chunk: PCM audio (`audio/pcm;rate=16000`) or an image frame (`image/jpeg`). */
  sendRealtime(blob: Blob): Promise<void> {
    return this.send({ blob });
  }

  /** Tell the model the user started speaking (when automatic activity detection is off). */
  sendActivityStart(): Promise<void> {
    return this.send({ activityStart: true });
  }

  /** Tell the model the user stopped speaking (when automatic activity detection is off). */
  sendActivityEnd(): Promise<void> {
    return this.send({ activityEnd: true });
  }

  /**
   * End the live run: requests already queued are still delivered, then `close`. Idempotent;
   * never waits (the close request does not count against the capacity).
   */
  close(): void {
    if (this.#closed) return;
    this.#push({ close: true });
    this.#closed = true;
    for (const wake of this.#writers.splice(0)) wake();
  }

  /** The next request; waits while the queue is empty. */
  async next(): Promise<LiveRequest> {
    while (this.size === 0) {
      await new Promise<void>((resolve) => {
        this.#reader = resolve;
      });
    }
    const request = this.#items[this.#head] as LiveRequest;
    this.#items[this.#head] = undefined as unknown as LiveRequest;
    this.#head += 1;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items.splice(0, this.#head);
      this.#head = 0;
    }
    this.#writers.shift()?.();
    return request;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<LiveRequest> {
    for (;;) {
      const request = await this.next();
      yield request;
      if ('close' in request) return;
    }
  }

  #push(request: LiveRequest): void {
    this.#items.push(request);
    const reader = this.#reader;
    this.#reader = undefined;
    reader?.();
  }
}
