/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { InMemorySessionService, LlmAgent } from '@adk/core';
import { startFakeGeminiLive, type FakeGeminiLiveServer } from '@adk/fake-provider-servers';
import { createGemini } from '@adk/models-gemini';
import { createAdkServer, listen, type RunningServer } from '@adk/server';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { axeViolations } from './axe';
import { fakeMicrophoneArgs, pcmPeak, writeToneWav } from './fake-microphone';
import { CHROMIUM, hasChromium } from './web-ui-harness';

/** One second of 24 kHz PCM16 per chunk: the first answer queues five seconds of playback. */
const SECOND = 48_000;

let dir: string;
let fake: FakeGeminiLiveServer;
let server: RunningServer;
let browser: Browser;
let page: Page;
const sessions = new InMemorySessionService();

const voice = (name: string) => page.locator('#voice').getAttribute(`data-${name}`).then(Number);

/** The realtime audio the fake Gemini Live server received, decoded. */
function receivedAudio(): { mimeType: string; bytes: Buffer }[] {
  return (fake.connections[0]?.messages ?? []).flatMap((message) => {
    const audio = (message.body.realtimeInput as { audio?: { mimeType: string; data: string } })
      ?.audio;
    return audio ? [{ mimeType: audio.mimeType, bytes: Buffer.from(audio.data, 'base64') }] : [];
  });
}

describe.skipIf(!hasChromium)('the voice button of the web UI', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'adk-web-voice-'));
    fake = await startFakeGeminiLive({
      // The fake's voice activity detection: 25 chunks of 40 ms (one second of speech) end a turn.
      respondAfterAudioChunks: 25,
      script: [
        {
          inputTranscript: 'What is the weather in Paris',
          audioChunks: 5,
          audioChunkBytes: SECOND,
          outputTranscript: 'It is sunny in Paris',
        },
        // Still speaking when the microphone goes on: the next chunk barges in.
        { audioChunks: 20, audioChunkBytes: SECOND, audioIntervalMs: 300 },
        ...Array.from({ length: 20 }, () => ({ audioChunks: 1 })),
      ],
    });
    const model = createGemini({ apiKey: 'test-key', baseURL: fake.baseURL })(
      'gemini-live-2.5-flash-preview',
    );
    const app = createAdkServer({
      apps: { voice: { agent: new LlmAgent({ name: 'voice', model }), autoCreateSession: true } },
      sessionService: sessions,
      webUi: true,
    });
    server = await listen(app, { port: 0 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--no-first-run',
        ...fakeMicrophoneArgs(writeToneWav(dir)),
      ],
    });
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await fake?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds a voice exchange: 16 kHz PCM to the model, its audio played, transcripts, barge-in, stored text', async () => {
    await page.goto(`${server.url}/#voice`);
    await page.waitForSelector('body[data-ready="true"]');
    // From the keyboard: focus the toggle and press Enter.
    await page.focus('#voice');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getAttribute('#voice', 'aria-pressed')).toBe('true');
    await expect.poll(() => page.textContent('#voice-status')).toContain('Listening');

    // The microphone arrives at the model as 16 kHz PCM16, 40 ms a chunk, the tone audible.
    await expect.poll(() => receivedAudio().length, { timeout: 60_000 }).toBeGreaterThan(3);
    const chunks = receivedAudio();
    expect(new Set(chunks.map((chunk) => chunk.mimeType))).toEqual(
      new Set(['audio/pcm;rate=16000']),
    );
    expect(chunks.every((chunk) => chunk.bytes.length === 1280)).toBe(true);
    expect(Math.max(...chunks.map((chunk) => pcmPeak(chunk.bytes)))).toBeGreaterThan(5_000);

    // The first answer: transcripts on screen, its five audio chunks queued for playback.
    await page
      .locator('.bubble.user', { hasText: 'What is the weather in Paris' })
      .waitFor({ timeout: 60_000 });
    await page.locator('.bubble.agent', { hasText: 'It is sunny in Paris' }).waitFor();
    await expect.poll(() => voice('audio-queued')).toBeGreaterThanOrEqual(5);
    expect(await voice('chunks-sent')).toBeGreaterThan(25);
    expect(await axeViolations(page)).toEqual([]);

    // The second answer starts while the microphone still streams: barge-in flushes playback.
    await page.locator('.note', { hasText: '(interrupted)' }).first().waitFor({ timeout: 60_000 });
    await expect.poll(() => voice('audio-flushed')).toBeGreaterThan(0);

    // Esc ends the run; the session is reloaded and drawn from its stored events.
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getAttribute('#voice', 'aria-pressed')).toBe('false');
    await expect.poll(() => page.locator('.live-transcript').count()).toBe(0);
    const [stored] = (await sessions.listSessions({ appName: 'voice', userId: 'user' })).sessions;
    const session = await sessions.getSession({
      appName: 'voice',
      userId: 'user',
      sessionId: stored!.id,
    });
    const texts = session!.events.map(
      (event) => `${event.author}: ${event.content?.parts.map((part) => part.text ?? '').join('')}`,
    );
    expect(texts).toContain('user: What is the weather in Paris');
    expect(texts).toContain('voice: It is sunny in Paris');
    expect(session!.events.some((event) => event.interrupted)).toBe(true);
    await page
      .locator('.event-block .bubble.user, .bubble.user', {
        hasText: 'What is the weather in Paris',
      })
      .first()
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // The model connection is closed with the run.
    await expect.poll(() => fake.openConnections).toBe(0);
  });

  it('ends the live run when another session is opened', async () => {
    const opened = fake.connections.length;
    await page.click('#voice');
    await expect.poll(() => page.getAttribute('#voice', 'aria-pressed')).toBe('true');
    await expect.poll(() => fake.connections.length).toBe(opened + 1);
    await page.click('#new-session');
    await expect.poll(() => page.getAttribute('#voice', 'aria-pressed')).toBe('false');
    await expect.poll(() => fake.openConnections).toBe(0);
    await expect.poll(() => page.locator('#voice-status').isHidden()).toBe(true);
  });
});
