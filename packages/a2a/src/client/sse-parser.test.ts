import { describe, expect, it } from 'vitest';

import { readSseData } from './sse-parser';

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function all(chunks: string[]): Promise<string[]> {
  const data: string[] = [];
  for await (const item of readSseData(streamOf(chunks))) data.push(item);
  return data;
}

describe('readSseData', () => {
  it('reads frames split at any byte, with CRLF, comments and multi-line data', async () => {
    const text =
      ': keep-alive\r\n\r\ndata: {"a":1}\r\n\r\nevent: x\ndata: line1\ndata: line2\n\ndata:{"b":2}\n\n';
    const expected = ['{"a":1}', 'line1\nline2', '{"b":2}'];
    expect(await all([text])).toEqual(expected);
    for (let cut = 1; cut < text.length; cut++) {
      expect(await all([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
    }
  });

  it('yields a last frame without its blank line', async () => {
    expect(await all(['data: tail'])).toEqual(['tail']);
  });

  it('decodes multi-byte characters split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: été\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    const data: string[] = [];
    for await (const item of readSseData(stream)) data.push(item);
    expect(data).toEqual(['été']);
  });
});
