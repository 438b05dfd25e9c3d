import { describe, expect, it } from 'vitest';

import { parseSseStream } from './parse-sse-stream';
import { SseParser, type SseEvent } from './sse-parser';

const STREAM =
  ': connected\r\n\r\n' +
  'event: message_start\r\ndata: {"type":"message_start"}\r\n\r\n' +
  'data: line one\ndata: line two\n\n' +
  'id: 7\rretry: 1500\rdata: {"x":"é"}\r\r' +
  'event: ping\ndata:\n\n' +
  'data: [DONE]\n\n';

const EXPECTED: SseEvent[] = [
  { event: 'message_start', data: '{"type":"message_start"}' },
  { event: 'message', data: 'line one\nline two' },
  { event: 'message', data: '{"x":"é"}', id: '7', retry: 1500 },
  { event: 'ping', data: '', id: '7' },
  { event: 'message', data: '[DONE]', id: '7' },
];

function parseInPieces(pieces: string[]): SseEvent[] {
  const parser = new SseParser();
  return pieces.flatMap((piece) => parser.push(piece));
}

describe('SseParser', () => {
  it('parses events, comments, multi-line data, CRLF, CR, id and retry', () => {
    expect(parseInPieces([STREAM])).toEqual(EXPECTED);
  });

  it('gives the same events wherever the input is split in two', () => {
    for (let cut = 0; cut <= STREAM.length; cut++) {
      expect(parseInPieces([STREAM.slice(0, cut), STREAM.slice(cut)]), `cut at ${cut}`).toEqual(
        EXPECTED,
      );
    }
  });

  it('gives the same events when fed one character at a time', () => {
    expect(parseInPieces([...STREAM])).toEqual(EXPECTED);
  });

  it('skips a leading byte order mark and ignores unknown fields', () => {
    expect(parseInPieces(['\ufeffdata: a\nfoo: bar\n\n'])).toEqual([
      { event: 'message', data: 'a' },
    ]);
  });

  it('reports a truncated trailing event and drops it', () => {
    const parser = new SseParser();
    expect(parser.push('data: complete\n\ndata: {"half":')).toEqual([
      { event: 'message', data: 'complete' },
    ]);
    expect(parser.end()).toEqual({ truncated: true });
  });
});

describe('parseSseStream', () => {
  it('decodes UTF-8 characters split across byte chunks', async () => {
    const bytes = new TextEncoder().encode('data: {"t":"héllo → 世界"}\n\n');
    async function* oneByteAtATime() {
      for (const byte of bytes) yield new Uint8Array([byte]);
    }
    const events: SseEvent[] = [];
    for await (const event of parseSseStream(oneByteAtATime())) events.push(event);
    expect(events).toEqual([{ event: 'message', data: '{"t":"héllo → 世界"}' }]);
  });

  it('calls onTruncated when the stream ends inside an event', async () => {
    async function* cut() {
      yield 'data: {"a":1}\n\ndata: {"b"';
    }
    let truncated = false;
    const events: SseEvent[] = [];
    for await (const event of parseSseStream(cut(), { onTruncated: () => (truncated = true) })) {
      events.push(event);
    }
    expect(events).toHaveLength(1);
    expect(truncated).toBe(true);
  });
});
