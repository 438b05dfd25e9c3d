import { InMemoryArtifactService } from '@adk/artifacts';
import { InMemorySessionService, modelContent } from '@adk/core';
import type { Event } from '@adk/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type RunningServer } from '../src';
import { deferred, parseSse, type Script, scriptedRunner, sseFrames, weatherTree } from './helpers';

let sessionService: InMemorySessionService;
let server: RunningServer;
let script: Script;
let runner: ReturnType<typeof scriptedRunner>;

async function start(extra: Partial<Parameters<typeof createAdkServer>[0]> = {}) {
  sessionService = new InMemorySessionService();
  runner = scriptedRunner(sessionService, 'weather', 'router', (request, emit) =>
    script(request, emit),
  );
  const app = createAdkServer({
    apps: { weather: { agent: weatherTree, runner } },
    sessionService,
    artifactService: new InMemoryArtifactService(),
    ...extra,
  });
  server = await listen(app, { port: 0 });
}

const url = (path: string) => `${server.url}${path}`;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const sessionsPath = '/apps/weather/users/u1/sessions';

beforeEach(async () => {
  script = async function* (_request, emit) {
    yield emit({ content: modelContent('It is sunny.') });
  };
  await start();
});
afterEach(async () => {
  await server.close();
});

describe('metadata routes', () => {
  it('answers /health, /version and /list-apps', async () => {
    expect(await (await fetch(url('/health'))).json()).toEqual({ status: 'ok' });
    const version = (await (await fetch(url('/version'))).json()) as Record<string, string>;
    expect(version.language).toBe('typescript');
    expect(version.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(await (await fetch(url('/list-apps'))).json()).toEqual(['weather']);
    const detailed = (await (await fetch(url('/list-apps?detailed=true'))).json()) as {
      apps: Array<Record<string, unknown>>;
    };
    expect(detailed.apps[0]).toMatchObject({
      name: 'weather',
      rootAgentName: 'router',
      language: 'typescript',
    });
    expect(Object.keys(detailed.apps[0]!.agents as object)).toEqual(['router', 'weather', 'news']);
  });

  it('answers unknown routes and apps with a JSON 404', async () => {
    const response = await fetch(url('/apps/nope/users/u1/sessions'));
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).toContain('App not found: nope');
    expect((await fetch(url('/no/such/route'))).status).toBe(404);
  });

  it('answers the evaluation lists of a new server with empty lists', async () => {
    expect(await (await fetch(url('/apps/weather/eval_sets'))).json()).toEqual([]);
    expect(await (await fetch(url('/apps/weather/eval-sets'))).json()).toEqual({ evalSetIds: [] });
    expect((await fetch(url('/apps/nope/eval_sets'))).status).toBe(404);
  });
});

describe('session routes', () => {
  it('creates, gets, lists (as a plain array), patches and deletes sessions', async () => {
    const created = (await (
      await post(sessionsPath, { state: { city: 'Paris' } })
    ).json()) as Record<string, unknown>;
    expect(created).toMatchObject({
      appName: 'weather',
      userId: 'u1',
      state: { city: 'Paris' },
      events: [],
    });
    const withId = await post(`${sessionsPath}/s-fixed`, { 'user:lang': 'fr' });
    expect(withId.status).toBe(200);
    expect(await withId.json()).toMatchObject({ id: 's-fixed', state: { 'user:lang': 'fr' } });

    const list = (await (await fetch(url(sessionsPath))).json()) as Array<{ id: string }>;
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((s) => s.id).sort()).toEqual([created.id, 's-fixed'].sort());

    const patched = await fetch(url(`${sessionsPath}/s-fixed`), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state_delta: { step: 2 } }),
    });
    expect(patched.status).toBe(200);
    const stored = (await (await fetch(url(`${sessionsPath}/s-fixed`))).json()) as {
      state: object;
      events: Event[];
    };
    expect(stored.state).toMatchObject({ step: 2, 'user:lang': 'fr' });
    expect(stored.events).toHaveLength(1);
    expect(stored.events[0]!.actions.stateDelta).toEqual({ step: 2 });

    expect((await fetch(url(`${sessionsPath}/s-fixed`), { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(url(`${sessionsPath}/s-fixed`))).status).toBe(404);
  });

  it('accepts the camelCase spelling and imports events', async () => {
    const response = await post(sessionsPath, {
      sessionId: 'imported',
      events: [{ author: 'user', content: { role: 'user', parts: [{ text: 'hello' }] } }],
    });
    expect(response.status).toBe(200);
    const session = (await (await fetch(url(`${sessionsPath}/imported`))).json()) as {
      events: Event[];
    };
    expect(session.events.map((e) => e.content?.parts[0]?.text)).toEqual(['hello']);
  });

  it('refuses a taken id with 409 and leaves the session untouched', async () => {
    await post(`${sessionsPath}/dup`, { a: 1 });
    const again = await post(`${sessionsPath}/dup`, { a: 2 });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { code: string }).code).toBe('SESSION_EXISTS');
    expect(await (await fetch(url(`${sessionsPath}/dup`))).json()).toMatchObject({
      state: { a: 1 },
    });
  });

  it('answers bad bodies with 400 and a message naming the problem', async () => {
    const notJson = await post(sessionsPath, '{"state": ');
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { detail: string }).detail).toMatch(/not valid JSON/);
    const badState = await post(sessionsPath, { state: 'sunny' });
    expect(badState.status).toBe(400);
    expect(((await badState.json()) as { detail: string }).detail).toMatch(/state/);
    const patchMissing = await fetch(url(`${sessionsPath}/nope`), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ state_delta: { x: 1 } }),
    });
    expect(patchMissing.status).toBe(404);
    const badEvent = await post(sessionsPath, {
      events: [{ author: 'user', content: { parts: 'x' } }],
    });
    expect(badEvent.status).toBe(400);
  });
});

describe('POST /run', () => {
  it('runs a turn and returns its events as a JSON array', async () => {
    await post(`${sessionsPath}/s1`, {});
    const response = await post('/run', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 's1',
      new_message: { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      state_delta: { city: 'Paris' },
    });
    expect(response.status).toBe(200);
    const events = (await response.json()) as Event[];
    expect(events.map((e) => [e.author, e.content?.parts[0]?.text])).toEqual([
      ['router', 'It is sunny.'],
    ]);
    expect(runner.calls[0]).toMatchObject({
      stateDelta: { city: 'Paris' },
      runConfig: { streamingMode: 'none' },
    });
    const session = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(session?.events).toHaveLength(2);
    expect(session?.state).toMatchObject({ city: 'Paris' });
  });

  it('accepts the camelCase body the ADK web UI sends', async () => {
    await post(`${sessionsPath}/s1`, {});
    const response = await post('/run', {
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
      newMessage: { role: 'user', parts: [{ text: 'hi' }] },
      streaming: false,
    });
    expect(response.status).toBe(200);
  });

  it('answers 404 for a missing session and 400 for invalid requests', async () => {
    const message = { role: 'user', parts: [{ text: 'hi' }] };
    const missing = await post('/run', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 'nope',
      new_message: message,
    });
    expect(missing.status).toBe(404);
    expect(runner.calls).toHaveLength(0);

    const noUser = await post('/run', {
      app_name: 'weather',
      session_id: 's1',
      new_message: message,
    });
    expect(noUser.status).toBe(400);
    expect(((await noUser.json()) as { detail: string }).detail).toMatch(/user_id/);

    const noParts = await post('/run', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 's1',
      new_message: { parts: [] },
    });
    expect(noParts.status).toBe(400);
    expect(((await noParts.json()) as { detail: string }).detail).toMatch(/new_message\.parts/);

    const badStreaming = await post('/run', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 's1',
      new_message: message,
      streaming: 'yes',
    });
    expect(badStreaming.status).toBe(400);

    const unknownApp = await post('/run', {
      app_name: 'other',
      user_id: 'u1',
      session_id: 's1',
      new_message: message,
    });
    expect(unknownApp.status).toBe(404);
  });
  it('answers 500 with the message when a run fails, keeping what was stored', async () => {
    script = async function* (_request, emit) {
      yield emit({ content: modelContent('partial work') });
      throw new Error('tool crashed');
    };
    await post(`${sessionsPath}/s1`, {});
    const response = await post('/run', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 's1',
      new_message: { parts: [{ text: 'go' }] },
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ detail: 'tool crashed' });
    const session = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(session?.events.map((e) => e.content?.parts[0]?.text)).toEqual(['go', 'partial work']);
  });

  it('answers 409 when another run wrote to the session in the meantime', async () => {
    const firstStarted = deferred();
    const secondDone = deferred();
    script = async function* (request, emit) {
      if (request.newMessage.parts[0]?.text === 'first') {
        firstStarted.resolve();
        await secondDone.promise;
      }
      yield emit({ content: modelContent(`answer to ${request.newMessage.parts[0]?.text}`) });
    };
    await post(`${sessionsPath}/s1`, {});
    const body = (text: string) => ({
      app_name: 'weather',
      user_id: 'u1',
      session_id: 's1',
      new_message: { parts: [{ text }] },
    });
    const first = post('/run', body('first'));
    await firstStarted.promise;
    expect((await post('/run', body('second'))).status).toBe(200);
    secondDone.resolve();
    const response = await first;
    expect(response.status).toBe(409);
    expect(((await response.json()) as { code: string }).code).toBe('STALE_SESSION');
    const session = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(session?.events.map((e) => e.content?.parts[0]?.text)).toEqual([
      'first',
      'second',
      'answer to second',
    ]);
  });

  it('aborts the run when a client that asked for it gives up waiting for the JSON answer', async () => {
    const aborted = deferred<unknown>();
    const waiting = deferred();
    script = async function* (request, emit) {
      yield emit({ content: modelContent('stored before the wait') });
      waiting.resolve();
      await new Promise((resolve) =>
        request.signal!.addEventListener(
          'abort',
          () => resolve(aborted.resolve(request.signal!.reason)),
          { once: true },
        ),
      );
    };
    await post(`${sessionsPath}/s1`, {});
    const client = new AbortController();
    const pending = fetch(url('/run'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        app_name: 'weather',
        user_id: 'u1',
        session_id: 's1',
        new_message: { parts: [{ text: 'hi' }] },
        abort_on_disconnect: true,
      }),
      signal: client.signal,
    }).catch((error: Error) => error.name);
    await waiting.promise;
    client.abort();
    expect(await pending).toBe('AbortError');
    expect(((await aborted.promise) as Error).name).toBe('ClientDisconnectedError');
    const session = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(session?.events.map((e) => e.content?.parts[0]?.text)).toEqual([
      'hi',
      'stored before the wait',
    ]);
  });
});

describe('POST /run_sse', () => {
  it('streams one data frame per event, partial chunks included', async () => {
    script = async function* (_request, emit) {
      yield emit({ content: modelContent('It is '), partial: true });
      yield emit({ content: modelContent('sunny.'), partial: true });
      yield emit({ content: modelContent('It is sunny.') });
    };
    await post(`${sessionsPath}/s1`, {});
    const response = await post('/run_sse', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 's1',
      new_message: { role: 'user', parts: [{ text: 'Weather?' }] },
      streaming: true,
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await response.text();
    expect(text.endsWith('\n\n')).toBe(true);
    const frames = parseSse(text) as Event[];
    expect(frames.map((e) => [e.author, e.partial ?? false, e.content?.parts[0]?.text])).toEqual([
      ['router', true, 'It is '],
      ['router', true, 'sunny.'],
      ['router', false, 'It is sunny.'],
    ]);
    expect(runner.calls[0]?.runConfig).toEqual({ streamingMode: 'sse' });
    const session = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(session?.events.map((e) => e.partial ?? false)).toEqual([false, false]);
  });

  it('reports an error mid-run as an error event and keeps what was stored', async () => {
    script = async function* (_request, emit) {
      yield emit({ content: modelContent('Looking it up...') });
      throw new Error('weather service exploded');
    };
    await post(`${sessionsPath}/s1`, {});
    const response = await post('/run_sse', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 's1',
      new_message: { role: 'user', parts: [{ text: 'Weather?' }] },
    });
    expect(response.status).toBe(200);
    const frames = parseSse(await response.text()) as Array<Record<string, unknown>>;
    expect(frames).toHaveLength(2);
    expect(frames[1]).toMatchObject({
      error: 'weather service exploded',
      errorCode: 'INTERNAL',
      errorMessage: 'weather service exploded',
      author: 'router',
      invocationId: 'inv-1',
    });
    const session = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(session?.events.map((e) => e.content?.parts[0]?.text)).toEqual([
      'Weather?',
      'Looking it up...',
    ]);
  });

  it('answers 404 before streaming when the session is missing', async () => {
    const response = await post('/run_sse', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 'nope',
      new_message: { parts: [{ text: 'hi' }] },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/json/);
  });

  it('aborts the run when the client that asked for it disconnects, leaving the session consistent', async () => {
    const aborted = deferred<unknown>();
    script = async function* (request, emit) {
      yield emit({ content: modelContent('first') });
      // Wait until the run is aborted: only the client's disconnect can end this wait.
      request.signal!.addEventListener('abort', () => aborted.resolve(request.signal!.reason), {
        once: true,
      });
      await new Promise((resolve) =>
        request.signal!.addEventListener('abort', resolve, { once: true }),
      );
      yield emit({ content: modelContent('never sent') });
    };
    await post(`${sessionsPath}/s1`, {});
    const client = new AbortController();
    const response = await fetch(url('/run_sse'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        app_name: 'weather',
        user_id: 'u1',
        session_id: 's1',
        new_message: { parts: [{ text: 'hi' }] },
        abort_on_disconnect: true,
      }),
      signal: client.signal,
    });
    const seen: unknown[] = [];
    try {
      for await (const frame of sseFrames(response)) {
        seen.push(frame);
        if (seen.length === 1) client.abort();
      }
    } catch (error) {
      expect((error as Error).name).toBe('AbortError');
    }
    expect(seen).toHaveLength(1);
    const reason = await aborted.promise;
    expect((reason as Error).name).toBe('ClientDisconnectedError');
    const session = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(session?.events.map((e) => e.content?.parts[0]?.text)).toEqual(['hi', 'first']);
  });
});

describe('artifact routes', () => {
  it('saves, lists, loads (latest and by version), lists versions and deletes', async () => {
    const base = `${sessionsPath}/s1/artifacts`;
    await post(`${sessionsPath}/s1`, {});
    expect(
      (await (
        await post(base, { filename: 'notes.txt', artifact: { text: 'v0' } })
      ).json()) as object,
    ).toMatchObject({ version: 0 });
    expect(
      (await (
        await post(base, { filename: 'notes.txt', artifact: { text: 'v1' } })
      ).json()) as object,
    ).toMatchObject({ version: 1 });
    expect(await (await fetch(url(base))).json()).toEqual(['notes.txt']);
    expect(await (await fetch(url(`${base}/notes.txt`))).json()).toEqual({ text: 'v1' });
    expect(await (await fetch(url(`${base}/notes.txt?version=0`))).json()).toEqual({ text: 'v0' });
    expect(await (await fetch(url(`${base}/notes.txt/versions/0`))).json()).toEqual({ text: 'v0' });
    expect(await (await fetch(url(`${base}/notes.txt/versions`))).json()).toEqual([0, 1]);
    expect((await fetch(url(`${base}/notes.txt?version=-1`))).status).toBe(400);
    expect((await fetch(url(`${base}/notes.txt?version=7`))).status).toBe(404);
    expect((await fetch(url(`${base}/notes.txt`), { method: 'DELETE' })).status).toBe(200);
    expect((await fetch(url(`${base}/notes.txt`))).status).toBe(404);
    expect(await (await fetch(url(base))).json()).toEqual([]);
  });

  it('answers 501 when no artifact service is configured', async () => {
    await server.close();
    await start({ artifactService: undefined });
    expect((await fetch(url(`${sessionsPath}/s1/artifacts`))).status).toBe(501);
  });
});

describe('graph routes', () => {
  it('draws the agent tree and highlights the agents of an event', async () => {
    const plain = (await (await fetch(url('/dev/weather/graph'))).json()) as { dotSrc: string };
    expect(plain.dotSrc).toMatch(/^digraph/);
    for (const name of ['router', 'weather', 'news', 'get_weather', 'get_news'])
      expect(plain.dotSrc).toContain(`"${name}"`);

    script = async function* (_request, emit) {
      yield emit({
        content: {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: 'c1',
                name: 'transfer_to_agent',
                args: { agent_name: 'weather' },
              },
            },
          ],
        },
        actions: { transferToAgent: 'weather' },
      });
    };
    await post(`${sessionsPath}/s1`, {});
    const events = (await (
      await post('/run', {
        app_name: 'weather',
        user_id: 'u1',
        session_id: 's1',
        new_message: { parts: [{ text: 'hi' }] },
      })
    ).json()) as Event[];
    const graph = (await (
      await fetch(url(`${sessionsPath}/s1/events/${events[0]!.id}/graph`))
    ).json()) as { dotSrc: string };
    expect(graph.dotSrc).toMatch(/"router" -> "weather" \[color=/);
    expect(graph.dotSrc).not.toMatch(/"router" -> "news" \[color=/);
    expect(await (await fetch(url(`${sessionsPath}/s1/events/unknown/graph`))).json()).toEqual({});
    const tree = (await (await fetch(url('/dev/build_graph/weather'))).json()) as {
      root_agent: { sub_agents: unknown[] };
    };
    expect(tree.root_agent.sub_agents).toHaveLength(2);

    // The same under the /dev/apps/{app} paths newer ADK web UIs call.
    expect(await (await fetch(url('/dev/apps/weather/build_graph'))).json()).toMatchObject({
      name: 'weather',
      root_agent: {
        name: 'router',
        type: 'agent',
        sub_agents: [
          { name: 'weather', tools: [{ name: 'get_weather', type: 'tool' }] },
          { name: 'news' },
        ],
      },
    });
    const image = (await (
      await fetch(url('/dev/apps/weather/build_graph_image?node=weather'))
    ).json()) as { dotSrc: string };
    expect(image.dotSrc).toContain('"get_weather"');
    expect(image.dotSrc).not.toContain('"news"');
    expect((await fetch(url('/dev/apps/weather/build_graph_image?node=nope'))).status).toBe(404);
    const devGraph = (await (
      await fetch(url(`/dev/apps/weather/users/u1/sessions/s1/events/${events[0]!.id}/graph`))
    ).json()) as { dotSrc: string };
    expect(devGraph).toEqual(graph);
    const info = (await (await fetch(url('/dev/apps/weather/metrics-info'))).json()) as {
      metricsInfo: { metricName: string }[];
    };
    expect(info.metricsInfo.map((m) => m.metricName)).toContain('response_match_score');
  });
});

describe('robustness', () => {
  it('requires the bearer token on API routes when one is configured', async () => {
    await server.close();
    await start({ token: 's3cret' });
    expect((await fetch(url('/health'))).status).toBe(200);
    const anonymous = await fetch(url('/list-apps'));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/Bearer/);
    expect(
      (await fetch(url('/list-apps'), { headers: { authorization: 'Bearer wrong' } })).status,
    ).toBe(401);
    expect(
      (await fetch(url('/list-apps'), { headers: { authorization: 'Bearer s3cret' } })).status,
    ).toBe(200);
  });

  it('sends no CORS headers unless origins are configured, and refuses foreign writes', async () => {
    const simple = await fetch(url('/list-apps'), { headers: { origin: 'http://evil.example' } });
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    const foreign = await post(sessionsPath, {}, { origin: 'http://evil.example' });
    expect(foreign.status).toBe(403);
    const sameOrigin = await post(sessionsPath, {}, { origin: server.url });
    expect(sameOrigin.status).toBe(200);

    await server.close();
    await start({ allowOrigins: ['http://app.example', 'regex:https://.*\\.corp\\.example'] });
    const preflight = await fetch(url('/run_sse'), {
      method: 'OPTIONS',
      headers: { origin: 'https://ui.corp.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://ui.corp.example');
    const allowed = await post(sessionsPath, {}, { origin: 'http://app.example' });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect((await post(sessionsPath, {}, { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('refuses bodies over the size limit with 413', async () => {
    await server.close();
    await start({ maxBodyBytes: 1024 });
    const response = await post(sessionsPath, { state: { blob: 'x'.repeat(4096) } });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/1024 bytes/);
    expect(await (await fetch(url(sessionsPath))).json()).toEqual([]);
  });

  it('counts a chunked body (no content-length) against the limit as it arrives', async () => {
    await server.close();
    await start({ maxBodyBytes: 1024 });
    // A stream body goes out with `transfer-encoding: chunked` and no length to judge it by.
    const chunked = (text: string) =>
      fetch(url(sessionsPath), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new ReadableStream({
          start(stream) {
            const bytes = new TextEncoder().encode(text);
            for (let at = 0; at < bytes.length; at += 200)
              stream.enqueue(bytes.slice(at, at + 200));
            stream.close();
          },
        }),
        duplex: 'half',
      } as RequestInit);
    const over = await chunked(JSON.stringify({ state: { blob: 'x'.repeat(4096) } }));
    expect(over.status).toBe(413);
    expect(await (await fetch(url(sessionsPath))).json()).toEqual([]);
    const under = await chunked(JSON.stringify({ state: { note: 'y'.repeat(600) } }));
    expect(under.status).toBe(200);
    expect(((await under.json()) as { state: { note: string } }).state.note).toHaveLength(600);
  });
});

describe('web page', () => {
  it('serves the bundled chat page and its settings only when asked', async () => {
    expect((await fetch(url('/'))).status).toBe(404);
    await server.close();
    await start({ webUi: { title: 'Demo', notice: 'Offline demo model' } });
    const page = await fetch(url('/'));
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    // The Vite build of @adk/web: one module script and one stylesheet, relative, no CDN.
    const script = /<script type="module" crossorigin src="\.\/(assets\/[^"]+\.js)">/.exec(
      html,
    )?.[1];
    expect(script).toBeDefined();
    expect(html).not.toMatch(/https?:\/\//);
    const asset = await fetch(url(`/${script}`));
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toMatch(/javascript/);
    expect(await (await fetch(url('/web-ui/config'))).json()).toEqual({
      title: 'Demo',
      notice: 'Offline demo model',
      defaultApp: null,
    });
  });
});

describe('timestamps for the ADK web UI', () => {
  it('sends seconds when timestampUnit is "seconds", and stores milliseconds', async () => {
    await server.close();
    await start({ timestampUnit: 'seconds' });
    const before = Date.now();
    await post(sessionsPath, {
      session_id: 's1',
      events: [{ author: 'user', timestamp: before / 1000, content: { parts: [{ text: 'old' }] } }],
    });
    const [listed] = (await (await fetch(url(sessionsPath))).json()) as Array<{
      lastUpdateTime: number;
    }>;
    expect(listed!.lastUpdateTime).toBeLessThan(before / 100);
    const events = (await (
      await post('/run', {
        app_name: 'weather',
        user_id: 'u1',
        session_id: 's1',
        new_message: { parts: [{ text: 'hi' }] },
      })
    ).json()) as Event[];
    expect(events[0]!.timestamp).toBeGreaterThanOrEqual(Math.floor(before / 1000));
    expect(events[0]!.timestamp).toBeLessThan(before / 100);
    const stored = await sessionService.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(stored!.events[0]!.timestamp).toBe(Math.round(before));
    expect(stored!.events[1]!.timestamp).toBeGreaterThanOrEqual(before);
  });
});

describe('SSE keep-alive', () => {
  it('sends comment frames while a run is quiet, which clients skip', async () => {
    await server.close();
    await start({ sseKeepAliveMs: 5 });
    const pinged = deferred();
    script = async function* (_request, emit) {
      await pinged.promise; // resumes only once the client has seen a keep-alive
      yield emit({ content: modelContent('done waiting') });
    };
    await post(`${sessionsPath}/s1`, {});
    const response = await post('/run_sse', {
      app_name: 'weather',
      user_id: 'u1',
      session_id: 's1',
      new_message: { parts: [{ text: 'hi' }] },
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += value;
      if (text.includes(': keep-alive\n\n')) pinged.resolve();
    }
    expect(text.startsWith(': keep-alive\n\n')).toBe(true);
    expect(parseSse(text)).toMatchObject([{ content: { parts: [{ text: 'done waiting' }] } }]);
  });
});
