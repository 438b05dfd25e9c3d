import { describe, expect, it } from 'vitest';

import { ConnectionLostError, guardResponses } from './guard-responses';

const CALL = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: {} });

/** A fetch answering every POST with this SSE text, then ending the stream. */
function serving(text: string) {
  return guardResponses(
    async () =>
      new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  );
}

async function readAll(fetch: ReturnType<typeof guardResponses>): Promise<string> {
  const response = await fetch('http://127.0.0.1/mcp', { method: 'POST', body: CALL });
  return response.text();
}

describe('guardResponses', () => {
  it('settles a request whose event stream ended without its answer', async () => {
    const text = await readAll(serving('event: message\ndata: {"jsonrpc":"2.0","method":"x"}\n\n'));
    const last = text.trim().split('\n').at(-1) ?? '';
    expect(JSON.parse(last.replace(/^data: /, ''))).toMatchObject({
      id: 7,
      error: { code: -32000, message: expect.stringContaining('without answering') },
    });
  });

  it('leaves an answered stream as it was', async () => {
    const answer = 'data: {"jsonrpc":"2.0","id":7,"result":{}}\n\n';
    expect(await readAll(serving(answer))).toBe(answer);
  });

  it('leaves a resumable stream (event ids) to the SDK', async () => {
    const primed = 'id: 1\ndata: \n\n';
    expect(await readAll(serving(primed))).toBe(primed);
  });

  it('tells a refused connection (never delivered) from a lost one', async () => {
    const failing = (code: string) =>
      guardResponses(async () => {
        throw new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
      })('http://127.0.0.1/mcp', { method: 'POST', body: CALL }).catch((e: unknown) => e);
    const refused = await failing('ECONNREFUSED');
    const reset = await failing('ECONNRESET');
    expect(refused).toBeInstanceOf(ConnectionLostError);
    expect((refused as ConnectionLostError).delivered).toBe(false);
    expect((reset as ConnectionLostError).delivered).toBe(true);
  });
});
