import { SseParser, type SseEvent } from './sse-parser';

/**
 * Turns a byte stream into Server-Sent Events. UTF-8 characters split across chunks are decoded
 * correctly. Returns when the stream ends; `onTruncated` is called if it ended in the middle of an
 * event (the fragment is dropped).
 */
export async function* parseSseStream(
  body: AsyncIterable<Uint8Array | string>,
  options: { onTruncated?: () => void } = {},
): AsyncGenerator<SseEvent, void> {
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  for await (const chunk of body) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    yield* parser.push(text);
  }
  yield* parser.push(decoder.decode());
  if (parser.end().truncated) options.onTruncated?.();
}
