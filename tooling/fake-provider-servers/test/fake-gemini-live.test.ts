import { GoogleGenAI, Modality, type LiveServerMessage, type Session } from '@google/genai';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeGeminiLive, type FakeGeminiLiveServer } from '../src';

let server: FakeGeminiLiveServer | undefined;
let session: Session | undefined;
afterEach(async () => {
  session?.close();
  session = undefined;
  await server?.close();
  server = undefined;
});

/** Opens `ai.live.connect` on the fake and collects every message it delivers. */
async function connect(
  ai: GoogleGenAI,
  model: string,
  config: Parameters<GoogleGenAI['live']['connect']>[0]['config'],
) {
  const messages: LiveServerMessage[] = [];
  const waiters: Array<{ until: (m: LiveServerMessage) => boolean; resolve: () => void }> = [];
  const closed = new Promise<{ code: number; reason: string }>((resolveClosed) => {
    void ai.live
      .connect({
        model,
        config,
        callbacks: {
          onmessage: (message) => {
            messages.push(message);
            for (const waiter of [...waiters]) {
              if (waiter.until(message)) {
                waiters.splice(waiters.indexOf(waiter), 1);
                waiter.resolve();
              }
            }
          },
          onclose: (event) => resolveClosed({ code: event.code, reason: event.reason }),
        },
      })
      .then((opened) => {
        session = opened;
        openedResolve(opened);
      });
  });
  let openedResolve: (s: Session) => void = () => {};
  const opened = new Promise<Session>((resolve) => (openedResolve = resolve));
  const next = (until: (m: LiveServerMessage) => boolean) =>
    messages.some(until)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiters.push({ until, resolve }));
  return { session: await opened, messages, next, closed };
}

const audio = { data: Buffer.alloc(320, 1).toString('base64'), mimeType: 'audio/pcm;rate=16000' };

// The official SDK is the judge of the fake's wire format: `ai.live.connect` waits for the fake's
// setupComplete and parses every frame into its LiveServerMessage type.
describe('fake Gemini Live server, read by @google/genai live.connect', () => {
  it('audio in: transcriptions, audio chunks, usage and a resumption handle in the SDK types', async () => {
    server = await startFakeGeminiLive({
      script: [
        {
          inputTranscript: 'What is the weather in Paris?',
          audioChunks: 3,
          outputTranscript: 'It is sunny in Paris.',
          usage: { inputTokens: 12, outputTokens: 30 },
        },
      ],
    });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    const live = await connect(ai, 'gemini-live-2.5-flash-preview', {
      responseModalities: [Modality.AUDIO],
      inputAudioTranscription: {},
      outputAudioTranscription: {},
      sessionResumption: {},
      speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Puck' } } },
    });
    for (let i = 0; i < 3; i++) live.session.sendRealtimeInput({ audio });
    await live.next((m) => m.serverContent?.turnComplete === true);

    const connection = server.connections[0]!;
    expect(connection.backend).toBe('gemini');
    expect(connection.query.key).toBe('test-key');
    expect(connection.setup).toMatchObject({
      model: 'models/gemini-live-2.5-flash-preview',
      generationConfig: { responseModalities: ['AUDIO'] },
    });
    expect(connection.messages.filter((m) => m.type === 'realtimeInput')).toHaveLength(3);

    const audioOut = live.messages.flatMap((m) => m.serverContent?.modelTurn?.parts ?? []);
    expect(audioOut).toHaveLength(3);
    expect(audioOut[0]!.inlineData?.mimeType).toBe('audio/pcm;rate=24000');
    expect(Buffer.from(audioOut[0]!.inlineData!.data!, 'base64')).toHaveLength(960);
    // the SDK's `data` getter concatenates the inline audio of a message
    expect(live.messages.find((m) => m.serverContent?.modelTurn)?.data).toBeTruthy();
    const heard = live.messages
      .map((m) => m.serverContent?.inputTranscription?.text ?? '')
      .join('');
    const said = live.messages
      .map((m) => m.serverContent?.outputTranscription?.text ?? '')
      .join('');
    expect(heard).toBe('What is the weather in Paris?');
    expect(said).toBe('It is sunny in Paris.');
    const done = live.messages.find((m) => m.serverContent?.turnComplete)!;
    expect(done.usageMetadata).toMatchObject({
      promptTokenCount: 12,
      responseTokenCount: 30,
      totalTokenCount: 42,
    });
    const handles = live.messages.flatMap((m) => m.sessionResumptionUpdate?.newHandle ?? []);
    expect(handles.length).toBeGreaterThanOrEqual(2);
    expect(live.messages.some((m) => m.sessionResumptionUpdate?.resumable)).toBe(true);
  });

  it('a tool call while audio streams, answered with sendToolResponse by id, then the answer', async () => {
    server = await startFakeGeminiLive({
      script: [
        { audioChunks: 1, toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
        { text: 'Sunny, 21 degrees.' },
      ],
    });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    const live = await connect(ai, 'gemini-2.0-flash-live-001', {
      responseModalities: [Modality.TEXT],
    });
    live.session.sendClientContent({ turns: 'Weather in Paris?' });
    await live.next((m) => m.toolCall !== undefined);
    const call = live.messages.find((m) => m.toolCall)!.toolCall!.functionCalls![0]!;
    expect(call).toMatchObject({ name: 'get_weather', args: { city: 'Paris' } });
    expect(call.id).toBeTruthy();
    live.session.sendRealtimeInput({ audio }); // audio keeps streaming while the tool runs
    live.session.sendToolResponse({
      functionResponses: [{ id: call.id!, name: call.name!, response: { temperature: 21 } }],
    });
    const sent = await server.waitForMessage((m) => m.type === 'toolResponse');
    await live.next((m) => m.serverContent?.turnComplete === true);
    expect(live.messages.map((m) => m.text ?? '').join('')).toBe('Sunny, 21 degrees.');
    expect(sent.body).toEqual({
      toolResponse: {
        functionResponses: [{ id: call.id, name: 'get_weather', response: { temperature: 21 } }],
      },
    });
  });

  it('barge-in: user audio during spoken output gets interrupted; goAway parses its duration', async () => {
    server = await startFakeGeminiLive({
      script: [
        { audioChunks: 200, audioIntervalMs: 5 },
        { audioChunks: 1, faults: { goAwayMs: 5000 } },
      ],
      respondAfterAudioChunks: 2,
    });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    const live = await connect(ai, 'gemini-live-2.5-flash-preview', {
      responseModalities: [Modality.AUDIO],
    });
    live.session.sendRealtimeInput({ audio });
    live.session.sendRealtimeInput({ audio });
    await live.next((m) => m.serverContent?.modelTurn !== undefined);
    live.session.sendRealtimeInput({ audio });
    await live.next((m) => m.serverContent?.interrupted === true);
    live.session.sendRealtimeInput({ audio });
    await live.next((m) => m.goAway !== undefined);
    expect(live.messages.find((m) => m.goAway)!.goAway!.timeLeft).toBe('5s');
    const chunks = live.messages.filter((m) => m.serverContent?.modelTurn).length;
    expect(chunks).toBeLessThan(200);
  });

  it('Vertex AI path: the SDK connects with a project-scoped model and resumes from a handle', async () => {
    server = await startFakeGeminiLive({ script: [{ text: 'Hello.' }] });
    const ai = new GoogleGenAI({
      vertexai: true,
      apiKey: 'express-key',
      httpOptions: { baseUrl: server.url },
    });
    const live = await connect(ai, 'gemini-2.0-flash-live-preview-04-09', {
      responseModalities: [Modality.TEXT],
      sessionResumption: {},
    });
    live.session.sendClientContent({ turns: 'Hi' });
    await live.next((m) => m.serverContent?.turnComplete === true);
    const handle = server.handles.at(-1)!;
    live.session.close();
    await live.closed;

    const resumed = await connect(ai, 'gemini-2.0-flash-live-preview-04-09', {
      responseModalities: [Modality.TEXT],
      sessionResumption: { handle },
    });
    expect(resumed.messages.some((m) => m.setupComplete)).toBe(true);
    const [first, second] = server.connections;
    expect(first!.backend).toBe('vertex');
    expect(first!.headers['x-goog-api-key']).toBe('express-key');
    expect(first!.setup!.model).toBe(
      'publishers/google/models/gemini-2.0-flash-live-preview-04-09',
    );
    expect(second!.resumedFrom).toBe(handle);
  });

  it('an error close reaches the SDK with its code and reason', async () => {
    server = await startFakeGeminiLive({
      rejectSetup: { code: 1008, reason: 'API key not valid.' },
    });
    const ai = new GoogleGenAI({ apiKey: 'bad-key', httpOptions: { baseUrl: server.url } });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => {
      void ai.live.connect({
        model: 'gemini-live-2.5-flash-preview',
        callbacks: {
          onmessage: () => {},
          onclose: (e) => resolve({ code: e.code, reason: e.reason }),
        },
      });
    });
    await expect(closed).resolves.toEqual({ code: 1008, reason: 'API key not valid.' });
    await expect.poll(() => server!.openConnections).toBe(0);
  });
});
