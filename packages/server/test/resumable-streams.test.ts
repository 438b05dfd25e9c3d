import { createEvent, InMemorySessionService, modelContent } from '@adk/core';
import { afterEach, describe, expect, it } from 'vitest';

import { createAdkServer, listen, type AdkServerApp, type RunningServer } from '../src';
import { deferred, type Script, scriptedRunner, sseFramesWithIds, weatherTree } from './helpers';

const sessionsPath = '/apps/weather/users/u1/sessions';
const body = (text = 'Weather?') => ({
  app_name: 'weather',
  user_id: 'u1',
  session_id: 's1',
  new_message: { parts: [{ text }] },
  streaming: true,
});

interface Instance {
  app: AdkServerApp;
  server: RunningServer;
  runner: ReturnType<typeof scriptedRunner>;
}

const open: Instance[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((instance) => instance.server.close()));
});

/** One server instance over `sessions`, running `script` (two instances share one store). */
async function instance(
  sessions: InMemorySessionService,
  script: Script,
  options: Partial<Parameters<typeof createAdkServer>[0]> = {},
): Promise<Instance> {
  const runner = scriptedRunner(sessions, 'weather', 'router', script);
  const app = createAdkServer({
    apps: { weather: { agent: weatherTree, runner } },
    sessionService: sessions,
    sseKeepAliveMs: 0,
    resumePollMs: 20,
    ...options,
  });
  const server = await listen(app, { port: 0 });
  const created = { app, server, runner };
  open.push(created);
  return created;
}

const post = (server: RunningServer, path: string, payload: unknown, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    ...init,
    headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) },
    body: JSON.stringify(payload),
  });

async function frames(response: Response) {
  const seen: Array<{ id: string | undefined; value: Record<string, unknown> }> = [];
  for await (const frame of sseFramesWithIds(response)) seen.push(frame);
  return seen;
}

const texts = (events: ReadonlyArray<{ content?: { parts: Array<{ text?: string }> } }>) =>
  events.map((event) => event.content?.parts[0]?.text);

describe('resumable /run_sse streams', () => {
  it('gives each stored event its id as the SSE id, and partial events none', async () => {
    const sessions = new InMemorySessionService();
    const { server } = await instance(sessions, async function* (_request, emit) {
      yield emit({ content: modelContent('Sun'), partial: true });
      yield emit({ content: modelContent('Sunny.') });
    });
    await post(server, `${sessionsPath}/s1`, {});
    const seen = await frames(await post(server, '/run_sse', body()));
    expect(seen.map((frame) => [frame.id, frame.value.partial ?? false])).toEqual([
      [undefined, true],
      [seen[1]!.value.id, false],
    ]);
  });

  it('lets a run go on when its client disconnects, and a reconnect elsewhere gets the rest', async () => {
    const polled = deferred();
    // A store shared by two instances; a read after a timestamp is a resumed stream's poll.
    const sessions = new (class extends InMemorySessionService {
      override getSession(request: Parameters<InMemorySessionService['getSession']>[0]) {
        if (request.afterTimestamp !== undefined) polled.resolve();
        return super.getSession(request);
      }
    })();
    const release = deferred();
    const steps: string[] = [];
    const script: Script = async function* (_request, emit) {
      steps.push('call');
      yield emit({
        content: {
          role: 'model',
          parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: { city: 'Paris' } } }],
        },
      });
      await release.promise;
      steps.push('answer');
      yield emit({
        content: {
          role: 'user',
          parts: [
            { functionResponse: { id: 'c1', name: 'get_weather', response: { sky: 'sun' } } },
          ],
        },
      });
      yield emit({ content: modelContent('Sunny, 21°C.') });
    };
    const first = await instance(sessions, script);
    const second = await instance(sessions, script);
    await post(first.server, `${sessionsPath}/s1`, {});

    const client = new AbortController();
    const response = await post(first.server, '/run_sse', body(), { signal: client.signal });
    let lastId: string | undefined;
    try {
      for await (const frame of sseFramesWithIds(response)) {
        lastId = frame.id;
        client.abort(); // the connection drops after the first event
      }
    } catch (error) {
      expect((error as Error).name).toBe('AbortError');
    }
    expect(lastId).toBeDefined();

    // Reconnect to the other instance; the run goes on in the first one once it polls.
    const resumed = post(second.server, '/run_sse', body(), {
      headers: { 'last-event-id': lastId! },
    });
    await polled.promise;
    release.resolve();
    const rest = await frames(await resumed);
    expect(rest.map((frame) => frame.id)).toEqual(rest.map((frame) => frame.value.id));
    expect(texts(rest.map((frame) => frame.value) as never)).toEqual([undefined, 'Sunny, 21°C.']);

    const session = await sessions.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    // One invocation, one user message, each step once: the reconnect started nothing new.
    expect(session!.events.map((event) => event.invocationId)).toEqual(Array(4).fill('inv-1'));
    expect(steps).toEqual(['call', 'answer']);
    expect(first.runner.calls).toHaveLength(1);
    expect(second.runner.calls).toHaveLength(0);
  });

  it('replays the stored rest of a finished run, and 404s an id the session does not hold', async () => {
    const sessions = new InMemorySessionService();
    const { server } = await instance(sessions, async function* (_request, emit) {
      yield emit({ content: modelContent('one') });
      yield emit({ content: modelContent('two') });
    });
    await post(server, `${sessionsPath}/s1`, {});
    const all = await frames(await post(server, '/run_sse', body()));
    const replay = await frames(
      await post(server, '/run_sse', body(), { headers: { 'last-event-id': all[0]!.id! } }),
    );
    expect(texts(replay.map((frame) => frame.value) as never)).toEqual(['two']);
    const missing = await post(server, '/run_sse', body(), {
      headers: { 'last-event-id': 'nope' },
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 'EVENT_NOT_FOUND' });
  });

  it('ends a reconnect to a run no instance carries on with a typed RUN_STREAM_STALLED frame', async () => {
    const sessions = new InMemorySessionService();
    const { server } = await instance(sessions, async function* () {}, { resumeIdleMs: 200 });
    const session = await sessions.createSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    // What a dead instance left: a user message and a tool call with no answer.
    const stored = [
      createEvent({
        invocationId: 'dead',
        author: 'user',
        content: { role: 'user', parts: [{ text: 'Weather?' }] },
      }),
      createEvent({
        invocationId: 'dead',
        author: 'weather',
        content: {
          role: 'model',
          parts: [{ functionCall: { id: 'c1', name: 'get_weather', args: {} } }],
        },
      }),
    ];
    for (const event of stored) await sessions.appendEvent({ session, event });
    const seen = await frames(
      await post(server, '/run_sse', body(), { headers: { 'last-event-id': stored[0]!.id } }),
    );
    expect(seen.map((frame) => frame.value.errorCode)).toEqual([undefined, 'RUN_STREAM_STALLED']);
  });
});

describe('graceful shutdown', () => {
  it('refuses new runs and readiness while draining, and lets a run in flight finish', async () => {
    const sessions = new InMemorySessionService();
    const release = deferred();
    const running = deferred();
    const { app, server } = await instance(sessions, async function* (_request, emit) {
      running.resolve();
      await release.promise;
      yield emit({ content: modelContent('Done.') });
    });
    await post(server, `${sessionsPath}/s1`, {});
    expect((await fetch(`${server.url}/health/ready`)).status).toBe(200);
    const inFlight = post(server, '/run_sse', body());
    await running.promise;
    const drained = app.drain({ deadlineMs: 120_000 });
    const ready = await fetch(`${server.url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining', runsInFlight: 1 });
    expect((await fetch(`${server.url}/health/live`)).status).toBe(200);
    const refused = await post(server, '/run_sse', body('Another?'));
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ code: 'SERVER_SHUTTING_DOWN' });
    release.resolve();
    const seen = await frames(await inFlight);
    expect(texts(seen.map((frame) => frame.value) as never)).toEqual(['Done.']);
    expect(await drained).toEqual({ finished: 1, aborted: 0 });
  });

  it('stops a run still going at the deadline with a SERVER_SHUTTING_DOWN frame', async () => {
    const sessions = new InMemorySessionService();
    const running = deferred();
    const { app, server } = await instance(sessions, async function* (request, emit) {
      yield emit({ content: modelContent('Working...') });
      running.resolve();
      await new Promise((_resolve, reject) =>
        request.signal!.addEventListener('abort', () => reject(request.signal!.reason), {
          once: true,
        }),
      );
    });
    await post(server, `${sessionsPath}/s1`, {});
    const response = post(server, '/run_sse', body());
    await running.promise;
    expect(await app.drain({ deadlineMs: 50 })).toEqual({ finished: 0, aborted: 1 });
    const seen = await frames(await response);
    expect(seen.map((frame) => frame.value.errorCode)).toEqual([undefined, 'SERVER_SHUTTING_DOWN']);
    const session = await sessions.getSession({
      appName: 'weather',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(texts(session!.events)).toEqual(['Weather?', 'Working...']);
  });
});
