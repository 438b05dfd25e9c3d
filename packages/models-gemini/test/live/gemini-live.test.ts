import { getText, type LiveConnection } from '@adk/core';
import { startFakeGeminiLive, type FakeGeminiLiveServer } from '@adk/fake-provider-servers';
import { afterEach, describe, expect, it } from 'vitest';

import { createGemini, GeminiLiveConnection } from '../../src';
import { liveRequest, MIC_CHUNK, readInBackground } from './live-test-helpers';

let server: FakeGeminiLiveServer | undefined;
const connections: LiveConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
});

async function connect(
  fake: FakeGeminiLiveServer,
  request = liveRequest({}),
  settings: Parameters<typeof createGemini>[0] = {},
) {
  const gemini = createGemini({ apiKey: 'test-key', baseURL: fake.baseURL, ...settings });
  const connection = await gemini('gemini-live-2.5-flash-preview').connectLive!(request, {});
  connections.push(connection);
  return connection;
}

describe('Gemini Live through the fake Live server', () => {
  it('sends setup from the request and its live settings, and waits for setupComplete', async () => {
    server = await startFakeGeminiLive();
    await connect(
      server,
      liveRequest(
        {
          responseModalities: ['AUDIO'],
          speechConfig: {
            voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } },
            languageCode: 'fr-FR',
          },
          inputAudioTranscription: {},
          outputAudioTranscription: {},
          realtimeInputConfig: {
            automaticActivityDetection: { disabled: true },
            activityHandling: 'START_OF_ACTIVITY_INTERRUPTS',
          },
          sessionResumption: {},
          contextWindowCompression: {
            triggerTokens: 25600,
            slidingWindow: { targetTokens: 12800 },
          },
          proactivity: { proactiveAudio: true },
          enableAffectiveDialog: true,
        },
        {
          systemInstruction: 'You are a weather assistant.',
          config: {
            temperature: 0.4,
            tools: [
              {
                functionDeclarations: [
                  {
                    name: 'get_weather',
                    description: 'Weather of a city',
                    parameters: { type: 'object', properties: { city: { type: 'string' } } },
                  },
                ],
              },
            ],
          },
        },
      ),
    );
    const connection = server.connections[0]!;
    expect(connection.path).toBe(
      '/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent',
    );
    expect(connection.headers['x-goog-api-key']).toBe('test-key');
    expect(connection.query.key).toBeUndefined(); // the key stays out of the URL
    expect(connection.setup).toEqual({
      model: 'models/gemini-live-2.5-flash-preview',
      generationConfig: {
        temperature: 0.4,
        responseModalities: ['AUDIO'],
        speechConfig: {
          voiceConfig: { prebuiltVoiceConfig: { voiceName: 'Kore' } },
          languageCode: 'fr-FR',
        },
        enableAffectiveDialog: true,
      },
      systemInstruction: { parts: [{ text: 'You are a weather assistant.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather of a city',
              parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' } } },
            },
          ],
        },
      ],
      inputAudioTranscription: {},
      outputAudioTranscription: {},
      realtimeInputConfig: {
        automaticActivityDetection: { disabled: true },
        activityHandling: 'START_OF_ACTIVITY_INTERRUPTS',
      },
      sessionResumption: {},
      contextWindowCompression: { triggerTokens: 25600, slidingWindow: { targetTokens: 12800 } },
      proactivity: { proactiveAudio: true },
    });
  });

  it('audio in: input transcription, audio chunks out as partials, output transcription, usage on turnComplete', async () => {
    server = await startFakeGeminiLive({
      script: [
        {
          inputTranscript: 'What is the weather in Paris?',
          audioChunks: 4,
          outputTranscript: 'It is sunny and twenty one degrees in Paris.',
          usage: { inputTokens: 40, outputTokens: 90 },
        },
      ],
    });
    const live = await connect(
      server,
      liveRequest({
        responseModalities: ['AUDIO'],
        inputAudioTranscription: {},
        outputAudioTranscription: {},
      }),
    );
    const reader = readInBackground(live);
    for (let i = 0; i < 3; i++) await live.sendRealtime({ blob: MIC_CHUNK });
    await reader.until((r) => r.turnComplete === true);

    const sent = server.connections[0]!.messages.map((m) => m.body);
    expect(sent).toEqual(Array(3).fill({ realtimeInput: { audio: MIC_CHUNK } }));

    const audio = reader.responses.filter((r) => r.content?.parts[0]?.inlineData);
    expect(audio).toHaveLength(4);
    for (const chunk of audio) {
      expect(chunk.partial).toBe(true);
      expect(chunk.content!.parts[0]!.inlineData!.mimeType).toBe('audio/pcm;rate=24000');
    }
    expect(Buffer.from(audio[0]!.content!.parts[0]!.inlineData!.data, 'base64')).toHaveLength(960);

    const heard = reader.responses.filter((r) => r.inputTranscription);
    expect(heard.filter((r) => r.partial).map((r) => r.inputTranscription!.text)).toEqual([
      'What is ',
      'the weather ',
      'in Paris?',
    ]);
    expect(heard.at(-1)).toEqual({
      inputTranscription: { text: 'What is the weather in Paris?', finished: true },
    });
    const said = reader.responses.filter((r) => r.outputTranscription && !r.partial);
    expect(said).toEqual([
      {
        outputTranscription: {
          text: 'It is sunny and twenty one degrees in Paris.',
          finished: true,
        },
      },
    ]);
    // the whole transcription comes before the turn ends, the usage with the turn's end
    expect(reader.responses.at(-2)).toBe(said[0]);
    expect(reader.responses.at(-1)).toEqual({
      turnComplete: true,
      usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 90, totalTokenCount: 130 },
    });
  });

  it('text in and text out: clientContent turns, text deltas then the whole text', async () => {
    server = await startFakeGeminiLive({ script: [{ text: 'Bonjour, comment puis-je aider ?' }] });
    const live = await connect(server, liveRequest({ responseModalities: ['TEXT'] }));
    const reader = readInBackground(live);
    await live.sendHistory([
      { role: 'user', parts: [{ text: 'My name is Ada.' }] },
      {
        role: 'model',
        parts: [
          { text: 'Hello Ada.' },
          { inlineData: { mimeType: 'audio/pcm;rate=24000', data: 'AAAA' } },
        ],
      },
    ]);
    await live.sendContent({ role: 'user', parts: [{ text: 'Say hello in French.' }] });
    await reader.until((r) => r.turnComplete === true);
    expect(server.connections[0]!.messages.map((m) => m.body)).toEqual([
      {
        clientContent: {
          turns: [
            { role: 'user', parts: [{ text: 'My name is Ada.' }] },
            { role: 'model', parts: [{ text: 'Hello Ada.' }] }, // audio is left out of history
          ],
          turnComplete: false,
        },
      },
      {
        clientContent: {
          turns: [{ role: 'user', parts: [{ text: 'Say hello in French.' }] }],
          turnComplete: true,
        },
      },
    ]);
    const deltas = reader.responses.filter((r) => r.partial).map((r) => getText(r.content));
    expect(deltas.join('')).toBe('Bonjour, comment puis-je aider ?');
    expect(deltas.length).toBeGreaterThan(1);
    const whole = reader.responses.filter((r) => r.content && !r.partial);
    expect(whole.map((r) => getText(r.content))).toEqual(['Bonjour, comment puis-je aider ?']);
  });

  it('a tool call while audio streams: the call surfaces at once, its result goes back as toolResponse by id', async () => {
    server = await startFakeGeminiLive({
      script: [
        {
          inputTranscript: 'Weather in Paris?',
          audioChunks: 2,
          toolCalls: [{ id: 'call-7', name: 'get_weather', args: { city: 'Paris' } }],
        },
        { audioChunks: 2, outputTranscript: 'Sunny, 21 degrees.' },
      ],
    });
    const live = await connect(
      server,
      liveRequest({
        responseModalities: ['AUDIO'],
        inputAudioTranscription: {},
        outputAudioTranscription: {},
      }),
    );
    const reader = readInBackground(live);
    for (let i = 0; i < 3; i++) await live.sendRealtime({ blob: MIC_CHUNK });
    const call = await reader.until((r) => r.content?.parts.some((p) => p.functionCall) ?? false);
    expect(call.partial).toBeUndefined();
    expect(call.content!.parts).toEqual([
      { functionCall: { id: 'call-7', name: 'get_weather', args: { city: 'Paris' } } },
    ]);
    // the microphone keeps streaming while the tool runs; the model does not answer it
    for (let i = 0; i < 5; i++) await live.sendRealtime({ blob: MIC_CHUNK });
    await live.sendContent({
      role: 'user',
      parts: [
        { functionResponse: { id: 'call-7', name: 'get_weather', response: { temperature: 21 } } },
      ],
    });
    await reader.until((r) => r.turnComplete === true);
    const sent = server.connections[0]!.messages;
    expect(sent.at(-1)!.body).toEqual({
      toolResponse: {
        functionResponses: [{ id: 'call-7', name: 'get_weather', response: { temperature: 21 } }],
      },
    });
    expect(sent.filter((m) => m.type === 'realtimeInput')).toHaveLength(8);
    expect(reader.responses.filter((r) => r.turnComplete)).toHaveLength(1);
    expect(
      reader.responses.find((r) => r.outputTranscription?.finished)!.outputTranscription,
    ).toEqual({
      text: 'Sunny, 21 degrees.',
      finished: true,
    });
  });

  it('a cancelled tool call is reported in customMetadata.toolCallCancellation', async () => {
    server = await startFakeGeminiLive({
      script: [
        {
          toolCalls: [{ id: 'c1', name: 'slow_lookup', args: {} }],
          cancelToolCalls: ['c1'],
        },
      ],
    });
    const live = await connect(server, liveRequest({ responseModalities: ['TEXT'] }));
    const reader = readInBackground(live);
    await live.sendContent({ role: 'user', parts: [{ text: 'Look it up' }] });
    const cancelled = await reader.until(
      (r) => r.customMetadata?.toolCallCancellation !== undefined,
    );
    expect(cancelled.customMetadata).toEqual({ toolCallCancellation: { ids: ['c1'] } });
  });

  it('barge-in: the user talking over spoken output yields interrupted, then the next turn is heard', async () => {
    server = await startFakeGeminiLive({
      respondAfterAudioChunks: 2,
      script: [
        { audioChunks: 500, audioIntervalMs: 5, outputTranscript: 'Let me tell you a long story' },
        { inputTranscript: 'Stop, what time is it?', text: 'Noon.' },
      ],
    });
    const live = await connect(
      server,
      liveRequest({ inputAudioTranscription: {}, outputAudioTranscription: {} }),
    );
    const reader = readInBackground(live);
    await live.sendRealtime({ blob: MIC_CHUNK });
    await live.sendRealtime({ blob: MIC_CHUNK });
    await reader.until((r) => r.content?.parts[0]?.inlineData !== undefined);
    await live.sendRealtime({ blob: MIC_CHUNK }); // the user speaks over the model
    const interrupted = await reader.until((r) => r.interrupted === true);
    expect(interrupted).toEqual({ interrupted: true });
    await live.sendRealtime({ blob: MIC_CHUNK });
    await reader.until((r) => r.turnComplete === true);
    const spoken = reader.responses.filter((r) => r.content?.parts[0]?.inlineData).length;
    expect(spoken).toBeLessThan(500);
    // the output transcription heard so far is closed at the interruption
    const index = reader.responses.indexOf(interrupted);
    const before = reader.responses.slice(0, index);
    expect(before.at(-1)?.outputTranscription?.finished).toBe(true);
    expect(getText(reader.responses.find((r) => r.content && !r.partial)?.content)).toBe('Noon.');
  });

  it('manual activity detection: activityStart / activityEnd end the user turn; video frames go as video', async () => {
    server = await startFakeGeminiLive({ script: [{ text: 'I see a cat.' }] });
    const live = await connect(
      server,
      liveRequest({
        responseModalities: ['TEXT'],
        realtimeInputConfig: { automaticActivityDetection: { disabled: true } },
      }),
    );
    const reader = readInBackground(live);
    const frame = { mimeType: 'image/jpeg', data: Buffer.from('jpeg').toString('base64') };
    await live.sendRealtime({ activityStart: true });
    await live.sendRealtime({ blob: frame });
    for (let i = 0; i < 4; i++) await live.sendRealtime({ blob: MIC_CHUNK });
    await live.sendRealtime({ activityEnd: true });
    await reader.until((r) => r.turnComplete === true);
    const bodies = server.connections[0]!.messages.map((m) => m.body);
    expect(bodies[0]).toEqual({ realtimeInput: { activityStart: {} } });
    expect(bodies[1]).toEqual({ realtimeInput: { video: frame } });
    expect(bodies.at(-1)).toEqual({ realtimeInput: { activityEnd: {} } });
    expect(reader.responses.filter((r) => r.turnComplete)).toHaveLength(1);
  });

  it('goAway, a dropped connection, and a new connection resuming from the last handle', async () => {
    server = await startFakeGeminiLive({
      script: [
        { text: 'First answer.' },
        { text: 'Second answer', faults: { goAwayMs: 1500, drop: true } },
        { text: 'Resumed answer.' },
      ],
    });
    const gemini = createGemini({ apiKey: 'test-key', baseURL: server.baseURL });
    const model = gemini('gemini-live-2.5-flash-preview');
    const first = await model.connectLive!(
      liveRequest({ responseModalities: ['TEXT'], sessionResumption: {} }),
      {},
    );
    connections.push(first);
    const reader = readInBackground(first);
    await first.sendContent({ role: 'user', parts: [{ text: 'one' }] });
    await reader.until((r) => r.turnComplete === true);
    await first.sendContent({ role: 'user', parts: [{ text: 'two' }] });
    const error = await reader.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: 'ModelStreamError',
      kind: 'interrupted',
      retryable: true,
      providerErrorType: 'websocket-close-1006',
    });
    expect(reader.responses.find((r) => r.goAway)).toEqual({ goAway: { timeLeftMs: 1500 } });
    const handles = reader.responses.flatMap((r) => r.liveSessionResumptionUpdate?.newHandle ?? []);
    expect(handles.length).toBeGreaterThanOrEqual(2);
    expect(
      reader.responses.find((r) => r.liveSessionResumptionUpdate)!.liveSessionResumptionUpdate,
    ).toEqual({
      newHandle: handles[0],
      resumable: true,
    });
    await expect.poll(() => server!.openConnections).toBe(0);

    const handle = handles.at(-1)!;
    const resumed = await model.connectLive!(
      liveRequest({ responseModalities: ['TEXT'], sessionResumption: { handle } }),
      {},
    );
    connections.push(resumed);
    const again = readInBackground(resumed);
    await resumed.sendContent({ role: 'user', parts: [{ text: 'three' }] });
    await again.until((r) => r.turnComplete === true);
    expect(server.connections[1]!.resumedFrom).toBe(handle);
    expect(server.connections[1]!.setup!.sessionResumption).toEqual({ handle });
    expect(getText(again.responses.find((r) => r.content && !r.partial)!.content)).toBe(
      'Resumed answer.',
    );
  });

  it('Vertex AI: LlmBidiService path, bearer token, project-scoped model name', async () => {
    server = await startFakeGeminiLive({ script: [{ text: 'ok' }] });
    const gemini = createGemini({
      baseURL: `${server.url}/v1`,
      vertexai: { project: 'my-proj', location: 'europe-west4', accessToken: async () => 'tok-1' },
    });
    const live = await gemini('gemini-live-2.5-flash').connectLive!(
      liveRequest({ responseModalities: ['TEXT'], sessionResumption: { transparent: true } }),
      {},
    );
    connections.push(live);
    const connection = server.connections[0]!;
    expect(connection.path).toBe(
      '/ws/google.cloud.aiplatform.v1beta1.LlmBidiService/BidiGenerateContent',
    );
    expect(connection.headers.authorization).toBe('Bearer tok-1');
    expect(connection.setup).toMatchObject({
      model:
        'projects/my-proj/locations/europe-west4/publishers/google/models/gemini-live-2.5-flash',
      sessionResumption: { transparent: true },
    });
  });
});

describe('Gemini Live back-pressure', () => {
  it('a reader that falls behind pauses the socket, then gets every response in order', async () => {
    server = await startFakeGeminiLive({ script: [{ audioChunks: 300 }] });
    const live = await GeminiLiveConnection.open({
      url: `${server.url.replace('http', 'ws')}/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent`,
      headers: { 'x-goog-api-key': 'test-key' },
      setup: { model: 'models/gemini-live-2.5-flash-preview' },
      provider: 'gemini',
      model: 'gemini-live-2.5-flash-preview',
      setupTimeoutMs: 30_000,
      maxBufferedResponses: 16,
    });
    connections.push(live);
    const state = live as unknown as { paused: boolean; responses: { size: number } };
    await live.sendContent({ role: 'user', parts: [{ text: 'Tell me a story.' }] });
    await expect.poll(() => state.paused).toBe(true);
    expect(state.responses.size).toBeLessThan(300);
    const reader = readInBackground(live);
    await reader.until((r) => r.turnComplete === true);
    const audio = reader.responses.filter((r) => r.content?.parts[0]?.inlineData);
    expect(audio).toHaveLength(300);
    const first = audio[0]!.content!.parts[0]!.inlineData!.data;
    expect(audio[1]!.content!.parts[0]!.inlineData!.data).not.toBe(first);
    expect(state.paused).toBe(false);
  });
});
