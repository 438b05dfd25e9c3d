import { ModelStreamError } from '../errors/model-stream-error';
import { parseSseStream } from './parse-sse-stream';

/** An SSE event whose data was parsed as JSON. */
export interface JsonSseEvent {
  /** The `event:` name (`message` when absent). */
  event: string;
  data: unknown;
}

/**
 * Reads a provider's SSE body as JSON events. Events after a `[DONE]` sentinel (OpenAI) are ignored.
 * A `data:` that is not JSON, or a stream that stops inside an event, throws
 * {@link ModelStreamError} (`malformed` / `interrupted`).
 */
export async function* jsonSseEvents(
  body: AsyncIterable<Uint8Array>,
  context: { provider: string; model: string },
): AsyncGenerator<JsonSseEvent, void> {
  let truncated = false;
  let done = false;
  for await (const event of parseSseStream(body, { onTruncated: () => (truncated = true) })) {
    // Like the official SDKs, read on to the end of the body after the sentinel, so that the
    // connection goes back to the pool instead of being destroyed.
    if (event.data === '[DONE]') done = true;
    if (done) continue;
    if (event.data.trim() === '') continue;
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch (cause) {
      throw new ModelStreamError({
        ...context,
        kind: 'malformed',
        message: 'a stream chunk is not valid JSON',
        chunk: event.data,
        cause,
      });
    }
    yield { event: event.event, data };
  }
  if (truncated) {
    throw new ModelStreamError({
      ...context,
      kind: 'interrupted',
      message: 'the stream ended in the middle of an event',
    });
  }
}
