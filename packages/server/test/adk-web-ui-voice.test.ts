/// <reference lib="dom" />
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { InMemorySessionService, LlmAgent } from '@adk/core';
import {
  FakeLiveModel,
  type FakeLiveConnection,
  type FakeLiveMessage,
  type FakeLiveStep,
} from '@adk/core/testing';

import { createAdkServer, listen, type RunningServer } from '../src';
import { adkWebUiDir } from './adk-web-ui';
import { hasChromium, launchChromium } from './chromium';

/** A 440 Hz tone, 16-bit mono 48 kHz, that Chromium plays as the microphone (looped). */
function toneWav(dir: string): string {
  const rate = 48_000;
  const samples = rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * 440 * i) / rate) * 12_000), 44 + i * 2);
  }
  const path = join(dir, 'tone.wav');
  writeFileSync(path, wav);
  return path;
}

/** Half a second of model audio (24 kHz PCM16, a quiet ramp). */
const MODEL_AUDIO = Buffer.alloc(24_000).fill(0x10).toString('base64');

/**
 * The model hears the first audio blob as "Book a table", answers with audio and a transcript;
 * a blob arriving after its answer is the user talking over it: `interrupted`.
 */
function answerAudio(
  message: FakeLiveMessage,
  connection: FakeLiveConnection,
): FakeLiveStep[] | undefined {
  if (message.type !== 'realtime' || !('blob' in message.input)) return undefined;
  const blobs = connection.received.filter((m) => m.type === 'realtime').length;
  if (blobs === 1)
    return [
      { inputTranscription: { text: 'Book a table', finished: true } },
      ...[0, 1, 2].map(() => ({
        content: {
          role: 'model' as const,
          parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data: MODEL_AUDIO } }],
        },
        partial: true,
      })),
      { outputTranscription: { text: 'For how many people?', finished: true } },
      { turnComplete: true },
    ];
  if (blobs === 3) return [{ interrupted: true }];
  return undefined;
}

let dir: string;
let server: RunningServer;
let browser: Browser;
let page: Page;
const model = new FakeLiveModel({ respond: answerAudio });
const sessions = new InMemorySessionService();

describe.skipIf(!hasChromium)(
  'the official ADK web UI holds a voice exchange over /run_live',
  { timeout: 180_000 },
  () => {
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'adk-official-voice-'));
      server = await listen(
        createAdkServer({
          apps: { voice: { agent: new LlmAgent({ name: 'voice', model }) } },
          sessionService: sessions,
          webDir: adkWebUiDir(),
          timestampUnit: 'seconds',
        }),
        { port: 0 },
      );
      browser = await launchChromium([
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-audio-capture=${toneWav(dir)}`,
        '--autoplay-policy=no-user-gesture-required',
      ]);
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      // Count what the page schedules for playback: the audio the model sent, played.
      await page.addInitScript(() => {
        const played: number[] = [];
        (window as unknown as { __played: number[] }).__played = played;
        const start = AudioBufferSourceNode.prototype.start;
        AudioBufferSourceNode.prototype.start = function (this: AudioBufferSourceNode, ...args) {
          if (this.buffer) played.push(this.buffer.length);
          return start.apply(this, args);
        };
      });
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('its call button streams the microphone as PCM, plays the answer, shows the transcripts', async () => {
      await page.goto(`${server.url}/?app=voice`);
      const call = page.locator('button.audio-rec-btn');
      await call.waitFor();
      await expect.poll(() => call.isEnabled(), { timeout: 60_000 }).toBe(true);
      await call.click();

      // The microphone arrives at the model as base64 PCM16 blobs (the official UI's 250 ms batches).
      await expect
        .poll(
          () => model.connections[0]?.received.filter((m) => m.type === 'realtime').length ?? 0,
          {
            timeout: 60_000,
          },
        )
        .toBeGreaterThanOrEqual(3);
      const connection = model.connections[0]!;
      const blobs = connection.received.flatMap((m) =>
        m.type === 'realtime' && 'blob' in m.input ? [m.input.blob] : [],
      );
      expect(blobs[0]!.mimeType).toBe('audio/pcm');
      const bytes = Buffer.from(blobs[0]!.data, 'base64');
      expect(bytes.length % 2).toBe(0);
      let peak = 0;
      for (let at = 0; at < bytes.length; at += 2)
        peak = Math.max(peak, Math.abs(bytes.readInt16LE(at)));
      expect(peak).toBeGreaterThan(5_000);

      // The answer's audio is scheduled for playback; the transcripts and the barge-in are shown.
      await expect
        .poll(() =>
          page.evaluate(() =>
            (window as unknown as { __played: number[] }).__played.reduce((a, b) => a + b, 0),
          ),
        )
        .toBeGreaterThan(0);
      await page.getByText('Book a table').first().waitFor({ timeout: 60_000 });
      await page.getByText('For how many people?').first().waitFor();

      // Ending the call closes the socket: the run ends, the model connection closes, and the
      // session keeps the exchange as text.
      await call.click();
      await expect.poll(() => model.openConnections.length).toBe(0);
      const [listed] = (await sessions.listSessions({ appName: 'voice', userId: 'user' })).sessions;
      const session = await sessions.getSession({
        appName: 'voice',
        userId: 'user',
        sessionId: listed!.id,
      });
      const texts = session!.events.map(
        (event) =>
          `${event.author}: ${event.content?.parts.map((part) => part.text ?? '').join('')}`,
      );
      expect(texts).toEqual(
        expect.arrayContaining(['user: Book a table', 'voice: For how many people?']),
      );
      expect(session!.events.some((event) => event.interrupted)).toBe(true);
    });
  },
);
