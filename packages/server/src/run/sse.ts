import { AdkError, newEventId } from '@adk/core';
import type { Event } from '@adk/core';

const encoder = new TextEncoder();

/**
 * An SSE comment line, sent while a run is quiet so that proxies keep the connection open;
 * clients ignore it (the ADK web UI reads `data:` lines only).
 */
export const SSE_KEEP_ALIVE: Uint8Array = encoder.encode(': keep-alive\n\n');

/** {@link SSE_KEEP_ALIVE} as text. */
export const SSE_KEEP_ALIVE_TEXT = ': keep-alive\n\n';

/**
 * One server-sent-events frame carrying `value` as JSON: `data: <json>\n\n`, preceded by
 * `id: <id>\n` when given (stored events carry their event id, so a client that loses the
 * connection reconnects with `Last-Event-ID` and gets the rest of the run).
 */
export function sseFrame(value: unknown, id?: string): Uint8Array {
  return encoder.encode(sseFrameText(value, id));
}

/** {@link sseFrame} as text (Node's response encodes it as it writes). */
export function sseFrameText(value: unknown, id?: string): string {
  const data = `data: ${JSON.stringify(value)}\n\n`;
  return id === undefined ? data : `id: ${id}\n${data}`;
}

/**
 * The frame sent when a run fails mid-stream. It is event-shaped (`errorCode`, `errorMessage`,
 * `author`, `invocationId`) and also carries `error`, the field the ADK web UI looks for.
 */
export interface SseErrorEvent extends Pick<Event, 'id' | 'invocationId' | 'author' | 'timestamp'> {
  error: string;
  errorCode: string;
  errorMessage: string;
}

/** Build the error frame payload for `error`. */
export function sseErrorEvent(error: unknown, invocationId: string, author: string): SseErrorEvent {
  const message = error instanceof Error ? error.message : String(error);
  return {
    id: newEventId(),
    invocationId,
    author,
    timestamp: Date.now(),
    error: message,
    errorCode: AdkError.isInstance(error) ? error.code : 'INTERNAL',
    errorMessage: message,
  };
}
