import { ModelStreamError } from '../errors/model-stream-error';
import { SseParser, type SseEvent } from './sse-parser';

/** An SSE event whose data was parsed as JSON. */
export interface JsonSseEvent {
  /** The `event:` name (`message` when absent). */
  event: string;
  data: unknown;
}

/**
 * Reads a provider's SSE body as JSON events. Events after a `[DONE]` sentinel (OpenAI) are
 * ignored, but the body is still read to its end (as the official SDKs do) so that the connection
 * goes back to the pool. A `data:` that is not JSON, or a stream that stops inside an event, throws
 * {@link ModelStreamError} (`malformed` / `interrupted`).
 */
export async function* jsonSseEvents(
  body: AsyncIterable<Uint8Array>,
  context: { provider: string; model: string },
): AsyncGenerator<JsonSseEvent, void> {
  const decoder = new TextDecoder('utf-8');
  const parser = new SseParser();
  let done = false;
  const parse = (event: SseEvent): JsonSseEvent | undefined => {
    if (event.data === '[DONE]') done = true;
    if (done || event.data.trim() === '') return undefined;
    try {
      return { event: event.event, data: JSON.parse(event.data) };
    } catch (cause) {
      throw new ModelStreamError({
        ...context,
        kind: 'malformed',
        message: 'a stream chunk is not valid JSON',
        chunk: event.data,
        cause,
      });
    }
  };
  for await (const chunk of body) {
    for (const event of parser.push(decoder.decode(chunk, { stream: true }))) {
      const parsed = parse(event);
      if (parsed) yield parsed;
    }
  }
  for (const event of parser.push(decoder.decode())) {
    const parsed = parse(event);
    if (parsed) yield parsed;
  }
  if (parser.end().truncated) {
    throw new ModelStreamError({
      ...context,
      kind: 'interrupted',
      message: 'the stream ended in the middle of an event',
    });
  }
}
