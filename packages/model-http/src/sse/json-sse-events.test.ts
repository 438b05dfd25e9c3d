import { describe, expect, it } from 'vitest';

import { jsonSseEvents, type JsonSseEvent } from './json-sse-events';

async function* bytes(...pieces: string[]) {
  for (const piece of pieces) yield new TextEncoder().encode(piece);
}

async function collect(body: AsyncIterable<Uint8Array>) {
  const events: JsonSseEvent[] = [];
  for await (const event of jsonSseEvents(body, { provider: 'p', model: 'm' })) events.push(event);
  return events;
}

describe('jsonSseEvents', () => {
  it('parses JSON data, skips empty data, stops yielding at [DONE] but reads the body to its end', async () => {
    let drained = false;
    async function* body() {
      yield* bytes('event: a\ndata: {"n":1}\n\nevent: ping\ndata:\n\ndata: [DONE]\n\n');
      yield* bytes('data: {"n":2}\n\n');
      drained = true;
    }
    expect(await collect(body())).toEqual([{ event: 'a', data: { n: 1 } }]);
    expect(drained).toBe(true);
  });

  it('throws ModelStreamError(malformed) with the chunk, and (interrupted) for a cut event', async () => {
    await expect(collect(bytes('data: {"n":\n\n'))).rejects.toMatchObject({
      name: 'ModelStreamError',
      kind: 'malformed',
      chunk: '{"n":',
    });
    await expect(collect(bytes('data: {"n":1}\n\ndata: {"n"'))).rejects.toMatchObject({
      kind: 'interrupted',
    });
  });
});
