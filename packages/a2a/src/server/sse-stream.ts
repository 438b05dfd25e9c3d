import type { JsonRpcId } from '../protocol/json-rpc';
import type { A2aStreamEvent } from '../protocol/types';
import type { TaskListener } from './task-store';

const encoder = new TextEncoder();

/** One SSE frame holding a JSON-RPC success response whose result is `event`. */
export function sseFrame(id: JsonRpcId, event: A2aStreamEvent): Uint8Array {
  return encoder.encode(`data: ${JSON.stringify({ jsonrpc: '2.0', id, result: event })}\n\n`);
}

/** A stream of task events that ends after the first `final` status update. */
export interface TaskEventStream {
  /** The response body. */
  body: ReadableStream<Uint8Array>;
  /** Feed this to the task: it writes each event as a frame. */
  listener: TaskListener;
  /** Write `event` now (the first frame, usually the task). */
  push(event: A2aStreamEvent): void;
  /** End the stream. */
  close(): void;
}

/**
 * An SSE body for the events of one task. Each event becomes `data: {"jsonrpc":"2.0","id":…,
 * "result":<event>}`; the stream closes after a status update with `final: true`. While nothing
 * happens, a comment line is sent every `keepAliveMs` so proxies keep the connection open. A client
 * that disconnects stops listening; the task itself keeps running (`tasks/get` reads it later).
 */
export function taskEventStream(
  id: JsonRpcId,
  keepAliveMs: number,
  onClose: () => void,
): TaskEventStream {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let closed = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const close = (): void => {
    if (closed) return;
    closed = true;
    if (timer) clearInterval(timer);
    onClose();
    try {
      controller.close();
    } catch {
      // already closed by the reader
    }
  };
  const push = (event: A2aStreamEvent): void => {
    if (closed) return;
    controller.enqueue(sseFrame(id, event));
    if (event.kind === 'status-update' && event.final) close();
  };
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      if (keepAliveMs > 0 && Number.isFinite(keepAliveMs)) {
        timer = setInterval(() => {
          if (!closed) controller.enqueue(encoder.encode(': keep-alive\n\n'));
        }, keepAliveMs);
        timer.unref?.();
      }
    },
    cancel() {
      closed = true;
      if (timer) clearInterval(timer);
      onClose();
    },
  });
  return { body, listener: push, push, close };
}
