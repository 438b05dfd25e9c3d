import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Event } from '@adk/core';
import { startFakeGemini, type FakeProviderServer } from '@adk/fake-provider-servers';
import { listen, type RunningServer } from '@adk/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createPlayground, loadConfig, type Playground } from '../src';
import { sseEvents } from './sse';

let dir: string;
let gemini: FakeProviderServer;
let playground: Playground;
let server: RunningServer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'adk-playground-gemini-'));
  gemini = await startFakeGemini({
    script: [
      { toolCalls: [{ name: 'transfer_to_agent', args: { agent_name: 'weather' } }] },
      { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
      { text: 'It is sunny in Paris today.', textChunks: ['It is ', 'sunny in ', 'Paris today.'] },
    ],
  });
  const config = loadConfig(
    {
      ADK_SESSION_URL: `sqlite:${join(dir, 'p.db')}`,
      GEMINI_API_KEY: 'test-key',
      GEMINI_BASE_URL: gemini.baseURL,
    },
    dir,
  );
  playground = await createPlayground(config);
  server = await listen(playground.app, { port: 0 });
});
afterEach(async () => {
  await server.close();
  await playground.close();
  await gemini.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One streamed `/run_sse` turn of the router in a new session `sessionId`: its frames. */
async function streamedTurn(sessionId: string, text: string): Promise<Event[]> {
  await fetch(`${server.url}/apps/router/users/u1/sessions/${sessionId}`, { method: 'POST' });
  const response = await fetch(`${server.url}/run_sse`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      app_name: 'router',
      user_id: 'u1',
      session_id: sessionId,
      new_message: { parts: [{ text }] },
      streaming: true,
    }),
  });
  return sseEvents(await response.text());
}

describe('the playground with a Gemini key', () => {
  it('runs the router on the real Gemini provider (against a fake Gemini API on 127.0.0.1)', async () => {
    expect(playground.offline).toBe(false);
    expect(playground.model.name).toBe('gemini-2.5-flash');
    const frames = await streamedTurn('s1', "What's the weather in Paris?");
    expect(frames.filter((e) => e.partial).map((e) => e.content?.parts[0]?.text)).toEqual([
      'It is ',
      'sunny in ',
      'Paris today.',
    ]);
    expect(frames.at(-1)?.content?.parts[0]?.text).toBe('It is sunny in Paris today.');
    expect(frames.some((e) => e.actions.transferToAgent === 'weather')).toBe(true);

    expect(gemini.requests).toHaveLength(3);
    expect(gemini.requests.every((r) => r.headers['x-goog-api-key'] === 'test-key')).toBe(true);
    const config = (await (await fetch(`${server.url}/web-ui/config`)).json()) as {
      notice: string;
    };
    expect(config.notice).toBe('Model: gemini-2.5-flash');
  });

  it('a grounded answer reaches the API with its sources and code parts, and is stored with them', async () => {
    gemini.setScript(() => ({
      text: 'The Burj Khalifa is the tallest building.',
      webSearch: {
        queries: ['tallest building'],
        sources: [{ url: 'https://example.org/burj', title: 'Burj Khalifa' }],
      },
      codeExecution: { code: 'print(828 * 2)', output: '1656\n' },
    }));
    const frames = await streamedTurn('s2', 'Tallest building?');
    const answer = frames.at(-1)!;
    const expected = {
      groundingMetadata: expect.objectContaining({
        webSearchQueries: ['tallest building'],
        groundingChunks: [{ web: { uri: 'https://example.org/burj', title: 'Burj Khalifa' } }],
      }),
      content: expect.objectContaining({
        parts: [
          { executableCode: { language: 'PYTHON', code: 'print(828 * 2)' } },
          { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1656\n' } },
          { text: 'The Burj Khalifa is the tallest building.' },
        ],
      }),
    };
    expect(answer).toMatchObject(expected);
    const stored = (await (
      await fetch(`${server.url}/apps/router/users/u1/sessions/s2`)
    ).json()) as { events: Event[] };
    expect(stored.events.at(-1)).toMatchObject(expected);
  });
});
