import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { requestFetch } from '../src';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
/** Resolved when the `/hang` route has written its first chunk. */
let hangStarted: () => void = () => undefined;

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      switch (req.url) {
        case '/echo':
          res.writeHead(201, { 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] });
          res.end(JSON.stringify({ method: req.method, body }));
          return;
        case '/stream':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: one\n\n');
          setImmediate(() => res.end('data: two\n\n'));
          return;
        case '/gzip':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
          res.end(gzipSync('unzipped text'));
          return;
        case '/empty':
          res.writeHead(204);
          res.end();
          return;
        case '/moved':
          res.writeHead(307, { location: '/echo' });
          res.end('moved');
          return;
        case '/error':
          res.writeHead(429, { 'retry-after': '3', 'content-type': 'application/json' });
          res.end('{"error":{"message":"slow down"}}');
          return;
        case '/hang':
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.write('data: first\n\n', () => hangStarted());
          return; // never ends
        case '/cut':
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
          res.write('only part', () => res.socket?.destroy());
          return;
        default:
          res.writeHead(404);
          res.end('no route');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('requestFetch', () => {
  const fetchImpl = requestFetch();

  it('sends method, headers and body and answers status, headers and body as fetch does', async () => {
    const response = await fetchImpl(`${base}/echo`, {
      method: 'post',
      headers: {
        'Content-Type': 'application/json',
        'X-Custom': 'yes',
        skipped: undefined,
      } as never,
      body: '{"a":1}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.statusText).toBe('Created');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}' });
    const request = seen.at(-1)!;
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['x-custom']).toBe('yes');
    expect(request.headers).not.toHaveProperty('skipped');
  });

  it('takes headers as a Headers object or pairs, a URL, and bytes bodies; a string body defaults to text/plain', async () => {
    await fetchImpl(new URL(`${base}/echo`), {
      method: 'POST',
      headers: new Headers({ 'x-from': 'headers' }),
      body: 'plain',
    });
    expect(seen.at(-1)!.headers['x-from']).toBe('headers');
    expect(seen.at(-1)!.headers['content-type']).toBe('text/plain;charset=UTF-8');
    const bytes = new TextEncoder().encode('bytes body');
    const response = await fetchImpl(`${base}/echo`, {
      method: 'PUT',
      headers: [['x-from', 'pairs']],
      body: bytes,
    });
    expect(await response.json()).toEqual({ method: 'PUT', body: 'bytes body' });
    expect(seen.at(-1)!.headers['x-from']).toBe('pairs');
  });

  it('streams the body chunk by chunk', async () => {
    const response = await fetchImpl(`${base}/stream`, { method: 'POST', body: '{}' });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      text += next.value;
    }
    expect(text).toBe('data: one\n\ndata: two\n\n');
  });

  it('decodes a gzip answer, answers a 204 without a body, and keeps error statuses and their bodies', async () => {
    expect(await (await fetchImpl(`${base}/gzip`)).text()).toBe('unzipped text');
    const empty = await fetchImpl(`${base}/empty`, { method: 'DELETE' });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    const limited = await fetchImpl(`${base}/error`, { method: 'POST', body: '{}' });
    expect(limited.status).toBe(429);
    expect(limited.ok).toBe(false);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(await limited.text()).toBe('{"error":{"message":"slow down"}}');
  });

  it('follows a redirect as fetch does (through fetch), and hands what it cannot send itself to fetch', async () => {
    const moved = await fetchImpl(`${base}/moved`, { method: 'POST', body: 'again' });
    expect(moved.status).toBe(201);
    expect(await moved.json()).toEqual({ method: 'POST', body: 'again' });
    const form = new FormData();
    form.set('field', 'value');
    const viaFetch = await fetchImpl(`${base}/echo`, { method: 'POST', body: form });
    const { body } = (await viaFetch.json()) as { body: string };
    expect(body).toContain('name="field"');
    expect(seen.at(-1)!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('rejects with the signal reason when aborted before or during the answer', async () => {
    const before = new AbortController();
    before.abort(new Error('stop now'));
    await expect(fetchImpl(`${base}/echo`, { signal: before.signal })).rejects.toThrow('stop now');

    const during = new AbortController();
    const started = new Promise<void>((resolve) => (hangStarted = resolve));
    const response = await fetchImpl(`${base}/hang`, { method: 'POST', signal: during.signal });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: first\n\n');
    await started;
    const reason = new DOMException('user stopped', 'AbortError');
    during.abort(reason);
    await expect(reader.read()).rejects.toBe(reason);
  });

  it('rejects as fetch does when no server answers or the connection breaks mid-body', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const refused = fetchImpl(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' });
    await expect(refused).rejects.toThrow(TypeError);
    await expect(refused).rejects.toThrow('fetch failed');
    await expect(refused).rejects.toHaveProperty('cause.code', 'ECONNREFUSED');

    const cut = await fetchImpl(`${base}/cut`);
    await expect(cut.text()).rejects.toThrow(TypeError);
  });

  it('goes through the given dispatcher', async () => {
    const agent = new Agent({ connections: 1 });
    let dispatched = 0;
    const counting = agent.compose((dispatch) => (options, handler) => {
      dispatched++;
      return dispatch(options, handler);
    });
    const viaAgent = requestFetch({ dispatcher: counting });
    expect((await viaAgent(`${base}/echo`, { method: 'POST', body: 'x' })).status).toBe(201);
    expect((await viaAgent(`${base}/moved`, { method: 'POST', body: 'x' })).status).toBe(201);
    // /echo; /moved, then sent again through fetch, which follows to /echo.
    expect(dispatched).toBe(4);
    await agent.close();
  });
});
