import { SSE_KEEP_ALIVE } from './sse';

/** How {@link sseResponse} turns a source into frames. */
export interface SseResponseOptions<T> {
  /** While quiet, send an SSE comment this often (ms); 0 turns it off. */
  keepAliveMs: number;
  /** The frame of one item. */
  frame(item: T): Uint8Array;
  /** The frame that ends the stream when the source throws; `undefined` ends it without one. */
  errorFrame(error: unknown): Uint8Array | undefined;
  /** The client went away before the source ended. */
  onCancel(reason: unknown): void;
  /** The source ended (done or thrown) while the client was connected. */
  onEnd?(): void;
}

/** A `text/event-stream` response pulling `source` one item per frame. */
export function sseResponse<T>(source: AsyncIterator<T>, options: SseResponseOptions<T>): Response {
  let keepAlive: NodeJS.Timeout | undefined;
  const stopKeepAlive = () => clearInterval(keepAlive);
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      if (options.keepAliveMs <= 0) return;
      keepAlive = setInterval(() => {
        try {
          stream.enqueue(SSE_KEEP_ALIVE);
        } catch {
          stopKeepAlive(); // the stream is already closed
        }
      }, options.keepAliveMs);
      keepAlive.unref();
    },
    async pull(stream) {
      try {
        const next = await source.next();
        if (next.done) {
          stopKeepAlive();
          options.onEnd?.();
          return stream.close();
        }
        stream.enqueue(options.frame(next.value));
      } catch (error) {
        stopKeepAlive();
        options.onEnd?.();
        const frame = options.errorFrame(error);
        if (frame) stream.enqueue(frame);
        stream.close();
      }
    },
    cancel(reason) {
      stopKeepAlive();
      options.onCancel(reason);
    },
  });
  return new Response(body, {
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    },
  });
}
