import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { FunctionTool, LlmAgent } from '@adk/core';
import type { Event, LlmRequest, LlmResponse, Model } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { SqlSessionService } from '@adk/session-sql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

import { createAdkServer, listen, type RunningServer } from '../src';
import { deferred, parseSse, sseFrames } from './helpers';

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Weather of a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, condition: 'sunny' }),
});

function tree(model: Model) {
  const weather = new LlmAgent({
    name: 'weather',
    description: 'Weather questions',
    model,
    tools: [getWeather],
  });
  return new LlmAgent({ name: 'router', description: 'Routes', model, subAgents: [weather] });
}

let dir: string;
let sessions: SqlSessionService;
let server: RunningServer;
const sessionsPath = '/apps/demo/users/u1/sessions';

async function start(model: Model, sseKeepAliveMs?: number) {
  const app = createAdkServer({
    apps: { demo: { agent: tree(model) } },
    sessionService: sessions,
    ...(sseKeepAliveMs === undefined ? {} : { sseKeepAliveMs }),
  });
  server = await listen(app, { port: 0 });
}
const post = (path: string, body: unknown, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...init,
  });
const runBody = (text: string, streaming = true) => ({
  app_name: 'demo',
  user_id: 'u1',
  session_id: 's1',
  new_message: { role: 'user', parts: [{ text }] },
  streaming,
});

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adk-server-'));
  sessions = await SqlSessionService.fromUrl(`sqlite:${join(dir, 'sessions.db')}`, {
    autoMigrate: true,
  });
});
afterEach(async () => {
  await server.close();
  await sessions.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('with the real Runner, LlmAgent and SQLite sessions', () => {
  it('streams a transfer, a tool call and a streamed answer, stores only final events, and records traces', async () => {
    const model = new FakeModel([
      { functionCalls: [{ name: 'transfer_to_agent', args: { agent_name: 'weather' } }] },
      { functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
      ['It is ', 'sunny ', 'in Paris.'],
    ]);
    await start(model);
    await post(`${sessionsPath}/s1`, {});
    const frames = parseSse(
      await (await post('/run_sse', runBody('Weather in Paris?'))).text(),
    ) as Event[];

    const transfer = frames.find((e) => e.actions?.transferToAgent === 'weather');
    expect(transfer?.author).toBe('router');
    const call = frames.find((e) =>
      e.content?.parts.some((p) => p.functionCall?.name === 'get_weather'),
    );
    expect(call?.author).toBe('weather');
    const result = frames.find((e) =>
      e.content?.parts.some((p) => p.functionResponse?.name === 'get_weather'),
    );
    expect(result?.content?.parts[0]?.functionResponse?.response).toEqual({
      city: 'Paris',
      condition: 'sunny',
    });
    const partial = frames.filter((e) => e.partial).map((e) => e.content?.parts[0]?.text);
    expect(partial).toEqual(['It is ', 'sunny ', 'in Paris.']);
    const final = frames.at(-1)!;
    expect(final.partial ?? false).toBe(false);
    expect(final.content?.parts[0]?.text).toBe('It is sunny in Paris.');

    const stored = (await (await fetch(`${server.url}${sessionsPath}/s1`)).json()) as {
      events: Event[];
    };
    expect(stored.events[0]).toMatchObject({
      author: 'user',
      content: { parts: [{ text: 'Weather in Paris?' }] },
    });
    expect(stored.events.slice(1).map((e) => e.id)).toEqual(
      frames.filter((e) => !e.partial).map((e) => e.id),
    );

    const spans = (await (await fetch(`${server.url}/debug/trace/session/s1`)).json()) as Array<{
      name: string;
    }>;
    const names = spans.map((s) => s.name);
    expect(names.filter((n) => n === 'call_llm')).toHaveLength(3);
    expect(names).toContain('execute_tool get_weather');
    const trace = (await (await fetch(`${server.url}/debug/trace/${final.id}`)).json()) as Record<
      string,
      string
    >;
    expect(JSON.parse(trace['gcp.vertex.agent.llm_response']!).content.parts[0].text).toBe(
      'It is sunny in Paris.',
    );
    const toolTrace = (await (
      await fetch(`${server.url}/debug/trace/${result!.id}`)
    ).json()) as Record<string, string>;
    expect(toolTrace['gen_ai.tool.name']).toBe('get_weather');
    expect(
      await (await fetch(`${server.url}/dev/apps/demo/debug/trace/${result!.id}`)).json(),
    ).toEqual(toolTrace);
    expect(
      await (await fetch(`${server.url}/dev/apps/demo/debug/trace/session/s1`)).json(),
    ).toEqual(spans);

    const graph = (await (
      await fetch(`${server.url}${sessionsPath}/s1/events/${call!.id}/graph`)
    ).json()) as { dotSrc: string };
    expect(graph.dotSrc).toMatch(/"weather" -> "get_weather" \[color=/);
  });

  it('aborts the model call when a client that asked for it disconnects and keeps the session usable', async () => {
    const started = deferred();
    const aborted = deferred<unknown>();
    let calls = 0;
    const model: Model = {
      name: 'hanging',
      async *generate(_request: LlmRequest, options): AsyncIterable<LlmResponse> {
        calls++;
        if (calls > 1) {
          yield { content: { role: 'model', parts: [{ text: 'second answer' }] } };
          return;
        }
        yield { content: { role: 'model', parts: [{ text: 'thinking' }] }, partial: true };
        started.resolve();
        await new Promise((_resolve, reject) => {
          options.signal!.addEventListener(
            'abort',
            () => {
              aborted.resolve(options.signal!.reason);
              reject(options.signal!.reason);
            },
            { once: true },
          );
        });
      },
    };
    await start(model);
    await post(`${sessionsPath}/s1`, {});
    const client = new AbortController();
    const response = await post(
      '/run_sse',
      { ...runBody('first'), abort_on_disconnect: true },
      { signal: client.signal },
    );
    const reading = (async () => {
      for await (const frame of sseFrames(response)) if (frame.partial) client.abort();
    })().catch((error: Error) => error.name);
    await started.promise;
    expect(await reading).toBe('AbortError');
    expect(((await aborted.promise) as Error).name).toBe('ClientDisconnectedError');

    const second = (await (await post('/run', runBody('second', false))).json()) as Event[];
    expect(second.at(-1)?.content?.parts[0]?.text).toBe('second answer');
    const stored = (await (await fetch(`${server.url}${sessionsPath}/s1`)).json()) as {
      events: Event[];
    };
    expect(stored.events.every((e) => !e.partial)).toBe(true);
    expect(stored.events.map((e) => e.content?.parts[0]?.text)).toContain('first');
    expect(stored.events.at(-1)?.content?.parts[0]?.text).toBe('second answer');
  });

  it('reports a failing model inside the stream, never as a dropped connection', async () => {
    await start(new FakeModel([new Error('provider is down')]));
    await post(`${sessionsPath}/s1`, {});
    const response = await post('/run_sse', runBody('hello'));
    expect(response.status).toBe(200);
    const frames = parseSse(await response.text()) as Array<Record<string, unknown>>;
    const last = frames.at(-1)!;
    expect(String(last.errorMessage ?? last.error)).toContain('provider is down');
  });

  it('reads the session once per turn, and answers 404 before streaming for a missing session', async () => {
    await start(new FakeModel(['first answer', 'second answer']));
    await post(`${sessionsPath}/s1`, {});
    const reads = vi.spyOn(sessions, 'getSession');
    const frames = parseSse(await (await post('/run_sse', runBody('first'))).text()) as Event[];
    expect(frames.at(-1)?.content?.parts[0]?.text).toBe('first answer');
    // The runner's read only: the server does not check the session's existence on its own.
    expect(reads).toHaveBeenCalledTimes(1);
    const answer = (await (await post('/run', runBody('second', false))).json()) as Event[];
    expect(answer.at(-1)?.content?.parts[0]?.text).toBe('second answer');
    expect(reads).toHaveBeenCalledTimes(2);

    for (const path of ['/run_sse', '/run']) {
      const missing = await post(path, { ...runBody('hi'), session_id: 'nope' });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/json/);
      expect(await missing.json()).toEqual({
        detail: 'Session not found: nope',
        code: 'SESSION_NOT_FOUND',
      });
    }
    expect((await fetch(`${server.url}${sessionsPath}/nope`)).status).toBe(404);
  });

  it('opens the stream of a turn posted while another runs on the session, and runs it after', async () => {
    const started = deferred();
    const release = deferred();
    let calls = 0;
    const model: Model = {
      name: 'slow-first',
      async *generate(): AsyncIterable<LlmResponse> {
        calls++;
        if (calls === 1) {
          started.resolve();
          await release.promise;
        }
        const text = calls === 1 ? 'first answer' : 'second answer';
        yield { content: { role: 'model', parts: [{ text }] } };
      },
    };
    // Keep-alives often: a stream open while its turn waits shows at once.
    await start(model, 20);
    await post(`${sessionsPath}/s1`, {});
    const first = await post('/run_sse', runBody('first'));
    await started.promise;
    // The second turn waits for the first one's end, but its stream opens now and carries
    // keep-alives (for the proxies between), while the first turn is still running.
    const second = await post('/run_sse', runBody('second'));
    expect(second.status).toBe(200);
    expect(calls).toBe(1);
    release.resolve();
    const firstFrames = parseSse(await first.text()) as Event[];
    const secondFrames = parseSse(await second.text()) as Event[];
    expect(firstFrames.at(-1)?.content?.parts[0]?.text).toBe('first answer');
    expect(secondFrames.at(-1)?.content?.parts[0]?.text).toBe('second answer');
    const stored = (await (await fetch(`${server.url}${sessionsPath}/s1`)).json()) as {
      events: Event[];
    };
    expect(stored.events.map((e) => e.content?.parts[0]?.text)).toEqual([
      'first',
      'first answer',
      'second',
      'second answer',
    ]);
  });
});
