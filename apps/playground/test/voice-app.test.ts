import { join } from 'node:path';

import type { Event } from '@adk/core';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';

import { DEMO_LIVE_AUDIO_NOTICE } from '../src';
import { demoPlaygroundEachTest } from './demo-playground';

const demo = demoPlaygroundEachTest('adk-playground-voice-');

async function live(sessionId: string, modality: 'TEXT' | 'AUDIO') {
  const ws = new WebSocket(
    `${demo.server.url.replace('http', 'ws')}/run_live?app_name=voice&user_id=u1&session_id=${sessionId}&modalities=${modality}`,
  );
  const frames: Event[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data)) as Event));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed };
}

it('serves the voice app live: a typed question runs the weather tool mid-connection, and the session keeps the exchange', async () => {
  const created = await fetch(`${demo.server.url}/apps/voice/users/u1/sessions`, {
    method: 'POST',
  });
  const { id: sessionId } = (await created.json()) as { id: string };

  const text = await live(sessionId, 'TEXT');
  text.ws.send(
    JSON.stringify({
      content: { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
    }),
  );
  await expect.poll(() => text.frames.some((frame) => frame.turnComplete)).toBe(true);
  text.ws.send(JSON.stringify({ close: true }));
  expect(await text.closed).toBe(1000);
  expect(
    text.frames.some((frame) => frame.content?.parts[0]?.functionResponse?.name === 'get_weather'),
  ).toBe(true);

  // Audio reaches the offline stand-in, which says it cannot hear.
  const audio = await live(sessionId, 'AUDIO');
  audio.ws.send(
    JSON.stringify({
      blob: { mime_type: 'audio/pcm', data: Buffer.alloc(320).toString('base64') },
    }),
  );
  await expect.poll(() => audio.frames.some((frame) => frame.turnComplete)).toBe(true);
  audio.ws.close();
  await audio.closed;

  const session = (await (
    await fetch(`${demo.server.url}/apps/voice/users/u1/sessions/${sessionId}`)
  ).json()) as { events: Event[] };
  const texts = session.events.map((event) => event.content?.parts[0]?.text).filter(Boolean);
  expect(texts[0]).toBe('What is the weather in Paris?');
  expect(texts[1]).toMatch(/Paris/);
  expect(texts.at(-1)).toBe(DEMO_LIVE_AUDIO_NOTICE);
});

it('is an `adk web` app too: the agents folder exports the voice agent on the Gemini Live model', async () => {
  const { loadApps } = await import('@adk/cli');
  const { apps, skipped } = await loadApps(
    join(import.meta.dirname, '..', 'agents'),
    () => undefined,
  );
  expect(skipped).toEqual([]);
  const voice = apps.get('voice') as { name: string; model?: unknown } | undefined;
  expect(voice?.name).toBe('voice');
  expect(voice?.model).toBe(process.env.ADK_LIVE_MODEL?.trim() || 'gemini-live-2.5-flash-preview');
});
