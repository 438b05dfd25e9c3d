import type { ServerResponse } from 'node:http';

import type { FakeStreamFaults } from './types';

/** One SSE event to write: `event:` name (optional) and its JSON (or raw string) data. */
export interface OutgoingEvent {
  event?: string;
  data: unknown;
  /** Marks an event carrying a text delta (used by the `hangAfterDeltas` fault). */
  delta?: boolean;
}

const MALFORMED = '{"this is": not json';

/**
 * Writes `events` as a `text/event-stream` response, applying `faults`. `separator` is the line
 * ending (Gemini uses CRLF). Resolves when done (or when the fault hangs, immediately after the
 * last written event; the response then stays open until the client goes away).
 */
export async function writeSse(
  res: ServerResponse,
  events: OutgoingEvent[],
  faults: FakeStreamFaults = {},
  options: { lineEnding?: string; headers?: Record<string, string> } = {},
): Promise<void> {
  const eol = options.lineEnding ?? '\n';
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...options.headers,
  });
  const frames: string[] = [];
  events.forEach((event, index) => {
    if (faults.malformedAt === index) frames.push(`data: ${MALFORMED}${eol}${eol}`);
    frames.push(frame(event, eol));
  });
  if (faults.malformedAt !== undefined && faults.malformedAt >= events.length) {
    frames.push(`data: ${MALFORMED}${eol}${eol}`);
  }
  if (faults.hangAfterDeltas !== undefined) {
    let seen = 0;
    const index = events.findIndex((event) => event.delta && ++seen === faults.hangAfterDeltas);
    faults = {
      ...faults,
      hangAfterEvents:
        index + 1 + (faults.malformedAt !== undefined && faults.malformedAt <= index ? 1 : 0),
    };
  }
  if (faults.cutAfterDeltas !== undefined) {
    let seen = 0;
    const index = events.findIndex((event) => event.delta && ++seen === faults.cutAfterDeltas);
    faults = {
      ...faults,
      cutAfterEvents:
        index + 1 + (faults.malformedAt !== undefined && faults.malformedAt <= index ? 1 : 0),
    };
  }
  const stopAt = Math.min(
    frames.length,
    faults.cutAfterEvents ?? Infinity,
    faults.hangAfterEvents ?? Infinity,
    faults.endAfterEvents ?? Infinity,
  );
  let text = frames.slice(0, stopAt).join('');
  if (faults.errorEventAfter) {
    const { events: after, type, message } = faults.errorEventAfter;
    text =
      frames.slice(0, after).join('') +
      frame({ event: 'error', data: { type: 'error', error: { type, message } } }, eol);
  }
  const size = faults.byteChunkSize;
  const bytes = Buffer.from(text, 'utf8');
  if (size && size > 0) {
    for (let offset = 0; offset < bytes.length; offset += size) {
      await write(res, bytes.subarray(offset, offset + size));
      await new Promise((resolve) => setImmediate(resolve));
    }
  } else if (bytes.length > 0) {
    await write(res, bytes);
  }
  if (faults.cutAfterEvents !== undefined && !faults.errorEventAfter) {
    await new Promise((resolve) => setImmediate(resolve));
    res.socket?.destroy();
    return;
  }
  if (faults.hangAfterEvents !== undefined && !faults.errorEventAfter) return;
  res.end();
}

function frame(event: OutgoingEvent, eol: string): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  const head = event.event ? `event: ${event.event}${eol}` : '';
  return `${head}data: ${data}${eol}${eol}`;
}

function write(res: ServerResponse, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) =>
    res.write(chunk, (error) => (error ? reject(error) : resolve())),
  );
}

/** Splits text into stream pieces: the given ones, or about two words per piece. */
export function textPieces(text: string, pieces?: string[]): string[] {
  if (pieces) return pieces;
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const out: string[] = [];
  for (let i = 0; i < words.length; i += 2) out.push(words.slice(i, i + 2).join(''));
  return out.length > 0 ? out : [text];
}

/** Splits a string in pieces of `size` characters. */
export function chunkString(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += Math.max(1, size)) out.push(text.slice(i, i + size));
  return out.length > 0 ? out : [''];
}
