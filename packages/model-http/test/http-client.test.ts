import { Agent, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

import {
  CircuitBreaker,
  CircuitOpenError,
  HttpClient,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
  ModelTimeoutError,
  type HttpClientOptions,
  type RetryEvent,
} from '../src';
import { startServer } from './local-server';

type Server = Awaited<ReturnType<typeof startServer>>;
let server: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function client(url: string, options: Partial<HttpClientOptions> = {}) {
  const retries: RetryEvent[] = [];
  const http = new HttpClient({
    provider: 'acme',
    baseURL: `${url}/v1/`,
    headers: { 'x-api-key': 'k' },
    ...options,
    retry: {
      sleep: async () => {},
      onRetry: (event) => retries.push(event),
      ...options.retry,
    },
  });
  return { http, retries };
}

const call = { model: 'acme-1', path: '/complete', body: { prompt: 'hi' } };

async function readAll(body: AsyncIterable<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of body) text += Buffer.from(chunk).toString('utf8');
  return text;
}

describe('HttpClient.postJson', () => {
  it('POSTs JSON with merged headers and returns the parsed answer', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const { http } = client(server.url);
    const result = await http.postJson({
      ...call,
      query: { alt: 'x' },
      headers: { 'X-Extra': '1', skip: undefined },
    });
    expect(result.data).toEqual({ ok: true });
    const received = server.requests[0]!;
    expect(received.url).toBe('/v1/complete?alt=x');
    expect(JSON.parse(received.body)).toEqual({ prompt: 'hi' });
    expect(received.headers).toMatchObject({
      'x-api-key': 'k',
      'x-extra': '1',
      'content-type': 'application/json',
    });
    expect(received.headers.skip).toBeUndefined();
  });

  it('retries a 429 after the Retry-After delay, then succeeds', async () => {
    server = await startServer((_req, res, _body, index) => {
      if (index === 0) {
        res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' });
        res.end('{"error":{"code":429,"message":"Quota exceeded","status":"RESOURCE_EXHAUSTED"}}');
      } else res.writeHead(200).end('{"n":2}');
    });
    const { http, retries } = client(server.url);
    expect((await http.postJson(call)).data).toEqual({ n: 2 });
    expect(server.requests).toHaveLength(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 7000, delaySource: 'retry-after' });
  });

  it('honours Retry-After given as an HTTP date', async () => {
    server = await startServer((_req, res, _body, index) => {
      if (index === 0) {
        res.writeHead(503, { 'retry-after': new Date(Date.now() + 60_000).toUTCString() }).end();
      } else res.writeHead(200).end('{}');
    });
    const { http, retries } = client(server.url);
    await http.postJson(call);
    expect(retries[0]!.delaySource).toBe('retry-after');
    expect(retries[0]!.delayMs).toBeGreaterThan(50_000);
    expect(retries[0]!.delayMs).toBeLessThanOrEqual(60_000);
  });

  it('backs off exponentially on 5xx and throws a typed, retryable error once retries run out', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'request-id': 'req_1' });
      res.end('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
    });
    const { http, retries } = client(server.url, {
      retry: { maxRetries: 3, initialDelayMs: 100, maxDelayMs: 10_000, random: () => 0.999999 },
    });
    const error = await http.postJson(call).catch((caught: unknown) => caught);
    expect(server.requests).toHaveLength(4);
    expect(retries.map((r) => r.delayMs)).toEqual([100, 200, 400]);
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 503,
      retryable: true,
      provider: 'acme',
      model: 'acme-1',
      providerMessage: 'Overloaded',
      providerErrorType: 'overloaded_error',
      requestId: 'req_1',
    });
    expect((error as Error).message).toContain('Overloaded');
  });

  it('does not retry a 400 and reports the provider message', async () => {
    server = await startServer((_req, res) => {
      res
        .writeHead(400)
        .end('{"error":{"message":"Invalid \'messages\'","type":"invalid_request_error"}}');
    });
    const { http } = client(server.url);
    await expect(http.postJson(call)).rejects.toMatchObject({
      status: 400,
      retryable: false,
      providerMessage: "Invalid 'messages'",
    });
    expect(server.requests).toHaveLength(1);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs', async () => {
    server = await startServer((_req, res) => res.writeHead(429, { 'retry-after': '3600' }).end());
    const { http, retries } = client(server.url);
    await expect(http.postJson(call)).rejects.toMatchObject({
      status: 429,
      retryAfterMs: 3_600_000,
    });
    expect(retries).toHaveLength(0);
  });

  it('keeps a non-JSON error body as the message', async () => {
    server = await startServer((_req, res) => res.writeHead(502).end('Bad Gateway from proxy'));
    const { http } = client(server.url, { retry: { maxRetries: 0 } });
    await expect(http.postJson(call)).rejects.toMatchObject({
      status: 502,
      providerMessage: 'Bad Gateway from proxy',
    });
  });

  it('turns a refused connection into a retryable ModelConnectionError after retries', async () => {
    const probe = await startServer(() => {});
    const url = probe.url;
    await probe.close();
    const { http, retries } = client(url);
    const error = await http.postJson(call).catch((caught: unknown) => caught);
    expect(ModelConnectionError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, url: `${url}/v1/complete` });
    expect(retries).toHaveLength(2);
  });

  it('throws ModelTimeoutError when no response arrives in time', async () => {
    server = await startServer(() => {
      // never answers
    });
    const { http } = client(server.url, { timeoutMs: 50, retry: { maxRetries: 1 } });
    const error = await http.postJson(call).catch((caught: unknown) => caught);
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ phase: 'response', timeoutMs: 50 });
    expect(server.requests).toHaveLength(2);
  });

  it('aborting cancels the request, closes the socket and throws the signal reason', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    server = await startServer(() => arrived());
    const { http } = client(server.url);
    const controller = new AbortController();
    const pending = http.postJson({ ...call, signal: controller.signal });
    await requestArrived;
    const reason = new Error('user cancelled');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await server.closed(0);
  });

  it('throws the reason at once when the signal is already aborted', async () => {
    server = await startServer((_req, res) => res.end('{}'));
    const { http } = client(server.url);
    const reason = new Error('already');
    await expect(http.postJson({ ...call, signal: AbortSignal.abort(reason) })).rejects.toBe(
      reason,
    );
    expect(server.requests).toHaveLength(0);
  });

  // undici checks its timeouts with a coarse clock, hence delays of about a second.
  it("is not cut short by the dispatcher's own header and body timeouts", async () => {
    server = await startServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200);
        res.write('{"slow":');
        setTimeout(() => res.end('true}'), 1100);
      }, 1100);
    });
    const dispatcher = new Agent({ headersTimeout: 20, bodyTimeout: 20 });
    const { http } = client(server.url, { dispatcher, retry: { maxRetries: 0 } });
    expect((await http.postJson(call)).data).toEqual({ slow: true });
    await dispatcher.close();
  });

  it('uses the injected undici dispatcher', async () => {
    server = await startServer((_req, res) => res.end('{}'));
    const seen: string[] = [];
    class CountingAgent extends Agent {
      override dispatch(
        options: Dispatcher.DispatchOptions,
        handler: Dispatcher.DispatchHandler,
      ): boolean {
        seen.push(String(options.path));
        return super.dispatch(options, handler);
      }
    }
    const dispatcher = new CountingAgent();
    const { http } = client(server.url, { dispatcher });
    await http.postJson(call);
    expect(seen).toEqual(['/v1/complete']);
    await dispatcher.close();
  });
});

describe('HttpClient.postStream', () => {
  it('streams the body chunk by chunk', async () => {
    let next!: () => void;
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: 1\n\n');
      next = () => res.end('data: 2\n\n');
    });
    const { http } = client(server.url);
    const stream = await http.postStream(call);
    const iterator = stream.body[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(Buffer.from(first.value as Uint8Array).toString()).toBe('data: 1\n\n');
    next();
    let rest = '';
    for (let r = await iterator.next(); !r.done; r = await iterator.next())
      rest += Buffer.from(r.value).toString();
    expect(rest).toBe('data: 2\n\n');
  });

  it('retries before the stream starts (503), not after', async () => {
    server = await startServer((_req, res, _body, index) => {
      if (index === 0) res.writeHead(503).end();
      else res.writeHead(200).end('data: ok\n\n');
    });
    const { http } = client(server.url);
    const stream = await http.postStream(call);
    expect(await readAll(stream.body)).toBe('data: ok\n\n');
    expect(server.requests).toHaveLength(2);
  });

  it('a stream cut mid-way throws ModelStreamError(interrupted)', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: partial\n\n', () => setImmediate(() => res.socket?.destroy()));
    });
    const { http } = client(server.url);
    const stream = await http.postStream(call);
    const error = await readAll(stream.body).catch((caught: unknown) => caught);
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'interrupted', retryable: true });
    expect(server.requests).toHaveLength(1);
  });

  it('aborting mid-stream closes the socket and throws the signal reason', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
    });
    const { http } = client(server.url);
    const controller = new AbortController();
    const stream = await http.postStream({ ...call, signal: controller.signal });
    const reason = new Error('stop');
    const error = await (async () => {
      for await (const _chunk of stream.body) controller.abort(reason);
    })().catch((caught: unknown) => caught);
    expect(error).toBe(reason);
    await server.closed(0);
  });

  it('closes the connection when the consumer stops early', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('data: first\n\n');
    });
    const { http } = client(server.url);
    const stream = await http.postStream(call);
    for await (const _chunk of stream.body) break;
    await server.closed(0);
  });

  it('does not count the time the consumer spends between chunks as stream silence', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('data: 1\n\n');
      setTimeout(() => res.end('data: 2\n\n'), 10);
    });
    const { http } = client(server.url, { streamIdleTimeoutMs: 30 });
    const stream = await http.postStream(call);
    let text = '';
    for await (const chunk of stream.body) {
      text += Buffer.from(chunk).toString();
      await new Promise((resolve) => setTimeout(resolve, 100)); // a slow consumer
    }
    expect(text).toBe('data: 1\n\ndata: 2\n\n');
  });

  it('throws ModelTimeoutError(stream-idle) when the stream goes silent', async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200);
      res.write('data: first\n\n');
    });
    const { http } = client(server.url, { streamIdleTimeoutMs: 50 });
    const stream = await http.postStream(call);
    const error = await readAll(stream.body).catch((caught: unknown) => caught);
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ phase: 'stream-idle' });
  });
});

describe('HttpClient with a circuit breaker', () => {
  it('opens after repeated failures and then fails fast without touching the network', async () => {
    server = await startServer((_req, res) =>
      res.writeHead(500).end('{"error":{"message":"boom"}}'),
    );
    let time = 0;
    const breaker = new CircuitBreaker({
      failureThreshold: 2,
      resetTimeoutMs: 1000,
      now: () => time,
    });
    const { http } = client(server.url, { circuitBreaker: breaker, retry: { maxRetries: 0 } });
    await expect(http.postJson(call)).rejects.toMatchObject({ status: 500 });
    await expect(http.postJson(call)).rejects.toMatchObject({ status: 500 });
    const error = await http.postJson(call).catch((caught: unknown) => caught);
    expect(CircuitOpenError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(2);
    // other models are unaffected
    await expect(http.postJson({ ...call, model: 'acme-2' })).rejects.toMatchObject({
      status: 500,
    });
    expect(server.requests).toHaveLength(3);
    // after the period one probe goes through
    time = 1000;
    await expect(http.postJson(call)).rejects.toMatchObject({ status: 500 });
    expect(server.requests).toHaveLength(4);
    expect(breaker.state('acme-1')).toBe('open');
  });

  it('a 4xx answer does not count as a failure, a user abort neither', async () => {
    server = await startServer((_req, res) => res.writeHead(400).end());
    const breaker = new CircuitBreaker({ failureThreshold: 1 });
    const { http } = client(server.url, { circuitBreaker: breaker });
    await expect(http.postJson(call)).rejects.toMatchObject({ status: 400 });
    await expect(http.postJson({ ...call, signal: AbortSignal.abort() })).rejects.toBeDefined();
    expect(breaker.state('acme-1')).toBe('closed');
  });
});
