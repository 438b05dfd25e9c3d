/**
 * `/run_sse` served by `listen` writes its frames to Node's response itself, after the app has
 * answered: what the client gets must be what the web-stream path (`app.fetch` without Node, as
 * any other adapter serves it) gives, headers added by middleware after the route included.
 */
import { InMemorySessionService, modelContent } from '@adk/core';
import { Hono, type Context } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';
import { deferred, frameParts, type Script, scriptedRunner, weatherTree } from './helpers';

const ORIGIN = 'http://app.example';
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** An ADK app mounted in an outer Hono app whose middleware acts after the routes answered. */
async function serve(
  script: Script,
  outer: (app: Hono) => void = () => undefined,
  extra: Partial<Parameters<typeof createAdkServer>[0]> = {},
) {
  const sessionService = new InMemorySessionService();
  const runner = scriptedRunner(sessionService, 'weather', 'router', script);
  const adk = createAdkServer({
    apps: { weather: { agent: weatherTree, runner } },
    sessionService,
    allowOrigins: [ORIGIN],
    ...extra,
  });
  const app = new Hono();
  outer(app);
  app.route('/', adk);
  server = await listen(app, { port: 0 });
  await sessionService.createSession({ appName: 'weather', userId: 'u1', sessionId: 's1' });
  await sessionService.createSession({ appName: 'weather', userId: 'u1', sessionId: 's2' });
  return { app, sessionService };
}

const runBody = (sessionId: string, text = 'hi') =>
  JSON.stringify({
    app_name: 'weather',
    user_id: 'u1',
    session_id: sessionId,
    new_message: { role: 'user', parts: [{ text }] },
  });

const runSse = (sessionId: string, headers: Record<string, string> = {}) =>
  fetch(`${server!.url}/run_sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, ...headers },
    body: runBody(sessionId),
  });

/** The frames of a body with the parts that differ between two runs (ids, times) replaced. */
function shape(text: string): string[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const { id, data } = frameParts(frame);
      const value = JSON.parse(data) as Record<string, unknown>;
      return JSON.stringify({
        hasId: id !== undefined && id === value.id,
        ...value,
        id: undefined,
        invocationId: undefined,
        timestamp: undefined,
      });
    });
}

describe('/run_sse written to Node directly', () => {
  it('carries the CORS headers and those an outer middleware adds after the route, as the web stream does', async () => {
    const { app } = await serve(
      async function* (_request, emit) {
        yield emit({ content: modelContent('It is '), partial: true });
        yield emit({ content: modelContent('It is sunny.') });
      },
      (outer) =>
        outer.use('*', async (c, next) => {
          await next();
          c.header('x-outer-after', 'yes');
        }),
    );
    const direct = await runSse('s1');
    expect(direct.status).toBe(200);
    expect(direct.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(direct.headers.get('access-control-allow-credentials')).toBe('true');
    expect(direct.headers.get('vary')).toBe('Origin');
    expect(direct.headers.get('x-outer-after')).toBe('yes');
    expect(direct.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(direct.headers.get('cache-control')).toBe('no-cache');
    expect(direct.headers.get('x-accel-buffering')).toBe('no');
    expect(direct.headers.get('x-hono-already-sent')).toBeNull();
    const directText = await direct.text();

    // The same request through the web-stream path (no Node response to write to).
    const viaStream = await app.fetch(
      new Request('http://localhost/run_sse', {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: runBody('s2'),
      }),
    );
    // Node's own transport headers aside.
    const transport = new Set(['date', 'transfer-encoding', 'connection', 'keep-alive']);
    const headers = (response: Response) =>
      [...response.headers].filter(([name]) => !transport.has(name));
    expect(headers(direct)).toEqual(headers(viaStream));
    expect(shape(directText)).toEqual(shape(await viaStream.text()));
    expect(shape(directText)).toHaveLength(2);
  });

  it('sends the headers before the first frame when the run is slow to yield it', async () => {
    const release = deferred();
    await serve(async function* (_request, emit) {
      await release.promise;
      yield emit({ content: modelContent('late') });
    });
    // The response (its headers) arrives while the run still waits for its first event.
    const response = await runSse('s1');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    release.resolve();
    expect(await response.text()).toContain('"late"');
  });

  it.each([
    {
      what: 'a JSON answer',
      replace: (c: Context) => c.json({ replaced: true }, 418),
      status: 418,
      body: '{"replaced":true}',
    },
    // Hono copies the replaced response's headers onto the replacement: only its body tells.
    { what: 'an empty answer', replace: (c: Context) => c.body(null, 200), status: 200, body: '' },
  ])(
    'sends $what an outer middleware put in place of the stream',
    async ({ replace, status, body }) => {
      await serve(
        async function* (_request, emit) {
          yield emit({ content: modelContent('It is sunny.') });
        },
        (outer) =>
          outer.use('*', async (c, next) => {
            await next();
            if (c.req.path === '/run_sse') c.res = replace(c);
          }),
      );
      const response = await runSse('s1');
      expect(response.status).toBe(status);
      expect(await response.text()).toBe(body);
    },
  );

  it('streams through the web stream when served by the adapter without listen', async () => {
    const sessionService = new InMemorySessionService();
    const runner = scriptedRunner(sessionService, 'weather', 'router', async function* (_r, emit) {
      yield emit({ content: modelContent('It is sunny.') });
    });
    const app = createAdkServer({
      apps: { weather: { agent: weatherTree, runner } },
      sessionService,
    });
    await sessionService.createSession({ appName: 'weather', userId: 'u1', sessionId: 's1' });
    const { serve: serveNode } = await import('@hono/node-server');
    const port = await new Promise<number>((resolve) => {
      const node = serveNode({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
        resolve(info.port),
      );
      server = {
        close: () => new Promise<void>((done) => node.close(() => done())),
      } as RunningServer;
    });
    const response = await fetch(`http://127.0.0.1:${port}/run_sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: runBody('s1'),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(shape(await response.text())).toHaveLength(1);
  });

  it('carries the headers on a Last-Event-ID resume too', async () => {
    const { sessionService } = await serve(async function* (_request, emit) {
      yield emit({ content: modelContent('first') });
      yield emit({ content: modelContent('second') });
    });
    await (await runSse('s1')).text();
    const stored = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    const [, first] = stored!.events;
    const resumed = await runSse('s1', { 'last-event-id': first!.id });
    expect(resumed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(resumed.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const frames = (await resumed.text())
      .split('\n\n')
      .filter(Boolean)
      .map((frame) => frameParts(frame));
    expect(frames.map((frame) => frame.id)).toEqual([stored!.events[2]!.id]);
    expect(JSON.parse(frames[0]!.data)).toMatchObject({ content: { parts: [{ text: 'second' }] } });
  });

  it('waits for a slow reader instead of buffering without bound, and loses no byte', async () => {
    const big = 'x'.repeat(1024 * 1024);
    const count = 40;
    let yielded = 0;
    await serve(async function* (_request, emit) {
      for (let index = 0; index < count; index++) {
        yielded = index + 1;
        yield emit({ content: modelContent(`${index} ${big}`), partial: true });
      }
      yield emit({ content: modelContent('done') });
    });
    const response = await runSse('s1');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    // Read one chunk, then stop reading for a while: the server must stop pulling events once
    // the socket's buffers are full (40 MB is far beyond them). Unpaced, the 40 events take a
    // few milliseconds.
    let text = decoder.decode((await reader.read()).value, { stream: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(yielded).toBeLessThan(count);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const texts = text
      .split('\n\n')
      .filter(Boolean)
      .map(
        (frame) =>
          (JSON.parse(frameParts(frame).data) as { content: { parts: Array<{ text: string }> } })
            .content.parts[0]!.text,
      );
    expect(texts).toEqual([
      ...Array.from({ length: count }, (_, index) => `${index} ${big}`),
      'done',
    ]);
  });
});
