import type { LiveConnection, LlmRequest, LlmResponse } from '@adk/core';
import {
  startFakeOpenAIRealtime,
  type FakeRealtimeOptions,
  type FakeRealtimeServer,
} from '@adk/fake-provider-servers';

import { createOpenAI, type OpenAISettings } from '../src';

/** One fake server and the connections opened against it, closed after each test. */
export class RealtimeFixture {
  server: FakeRealtimeServer | undefined;
  readonly connections: LiveConnection[] = [];

  async start(options: FakeRealtimeOptions = {}, settings: OpenAISettings = {}) {
    this.server = await startFakeOpenAIRealtime({ apiKey: 'sk-test', ...options });
    const openai = createOpenAI({
      apiKey: 'sk-test',
      baseURL: this.server.baseURL,
      realtime: { connectTimeoutMs: 120_000 },
      ...settings,
    });
    return { server: this.server, model: openai('gpt-realtime') };
  }

  track<T extends LiveConnection>(connection: T): T {
    this.connections.push(connection);
    return connection;
  }

  async stop(): Promise<void> {
    for (const connection of this.connections.splice(0)) await connection.close();
    await this.server?.close();
    this.server = undefined;
  }
}

/** A live request with `liveConnectConfig` (audio out, both transcriptions on by default). */
export function liveRequest(overrides: Partial<LlmRequest> = {}): LlmRequest {
  return {
    model: 'gpt-realtime',
    systemInstruction: 'You are a helpful voice assistant.',
    contents: [],
    config: {},
    liveConnectConfig: {
      responseModalities: ['AUDIO'],
      inputAudioTranscription: {},
      outputAudioTranscription: {},
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'marin' } } },
    },
    ...overrides,
  };
}

/** `ms` milliseconds of 16 kHz PCM16 (a quiet ramp), base64, as a microphone would send. */
export function mic16k(ms: number): string {
  const samples = ms * 16;
  const buffer = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1) buffer.writeInt16LE((i % 200) * 10, i * 2);
  return buffer.toString('base64');
}

/**
 * Reads `connection.receive()` in the background: `responses` fills as they arrive; `until`
 * waits for one matching `predicate`; `ended` settles when the stream ends (with its error).
 */
export function reader(connection: LiveConnection) {
  const responses: LlmResponse[] = [];
  const waiters: Array<{
    predicate: (r: LlmResponse) => boolean;
    resolve: (r: LlmResponse) => void;
  }> = [];
  const ended = (async () => {
    for await (const response of connection.receive()) {
      responses.push(response);
      for (const waiter of [...waiters]) {
        if (waiter.predicate(response)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(response);
        }
      }
    }
  })();
  ended.catch(() => undefined);
  return {
    responses,
    ended,
    until(predicate: (r: LlmResponse) => boolean): Promise<LlmResponse> {
      const seen = responses.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        waiters.push({ predicate, resolve });
        ended.then(
          () => reject(new Error('the live stream ended first')),
          (error: unknown) => reject(error),
        );
      });
    },
  };
}

/** Audio bytes of the partial audio responses. */
export function audioBytes(responses: LlmResponse[]): number {
  return responses
    .flatMap((r) => r.content?.parts ?? [])
    .filter((p) => p.inlineData?.mimeType === 'audio/pcm;rate=24000')
    .reduce((sum, p) => sum + Buffer.from(p.inlineData?.data ?? '', 'base64').length, 0);
}

/** TCP sockets open in this process (`process.getActiveResourcesInfo()`). */
export function openHandles(): { sockets: number } {
  const info = process.getActiveResourcesInfo();
  return { sockets: info.filter((name) => name === 'TCPSocketWrap').length };
}
