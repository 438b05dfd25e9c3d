import { ModelStreamError } from '@adk/model-http';
import { afterEach, describe, expect, it } from 'vitest';

import { audioBytes, liveRequest, mic16k, reader, RealtimeFixture } from './realtime-helpers';

const fixture = new RealtimeFixture();
afterEach(() => fixture.stop());

describe('OpenAI Realtime live connection, end to end through the fake server', () => {
  it('configures the session, streams 16 kHz audio in and gets audio and transcripts out', async () => {
    const { server, model } = await fixture.start({
      script: [
        {
          audioMs: 400,
          transcript: 'It is sunny in Paris.',
          usage: { inputTokens: 31, outputTokens: 12 },
        },
      ],
      inputTranscripts: ['What is the weather in Paris?'],
    });
    const connection = fixture.track(
      await model.connectLive(
        liveRequest({
          config: {
            tools: [
              {
                functionDeclarations: [
                  {
                    name: 'get_weather',
                    description: 'Weather of a city',
                    parameters: { type: 'object' },
                  },
                ],
              },
            ],
          },
        }),
        {},
      ),
    );
    const read = reader(connection);
    // 250 ms of microphone audio in 20 ms chunks; the fake's VAD commits after 200 ms at 24 kHz.
    for (let i = 0; i < 13; i += 1)
      await connection.sendRealtime({
        blob: { mimeType: 'audio/pcm;rate=16000', data: mic16k(20) },
      });
    await read.until((r) => r.turnComplete === true);

    const record = server.connections[0];
    expect(record?.url).toBe('/v1/realtime?model=gpt-realtime');
    expect(record?.headers.authorization).toBe('Bearer sk-test');
    const update = record?.events[0] as { type: string; session: Record<string, unknown> };
    expect(update.type).toBe('session.update');
    expect(update.session).toMatchObject({
      type: 'realtime',
      instructions: 'You are a helpful voice assistant.',
      output_modalities: ['audio'],
      audio: {
        input: {
          format: { type: 'audio/pcm', rate: 24000 },
          transcription: { model: 'gpt-4o-mini-transcribe' },
          turn_detection: { type: 'server_vad', create_response: true, interrupt_response: true },
        },
        output: { format: { type: 'audio/pcm', rate: 24000 }, voice: 'marin' },
      },
      tools: [{ type: 'function', name: 'get_weather', description: 'Weather of a city' }],
    });
    // 16 kHz in, 24 kHz out: 1.5 times the bytes (the resampler's last sample waits for more).
    expect(record?.audioBytes).toBeGreaterThanOrEqual(13 * 20 * 48 - 4);
    expect(record?.audioBytes).toBeLessThanOrEqual(13 * 20 * 48);

    const responses = read.responses;
    const input = responses.filter((r) => r.inputTranscription);
    // Chunks add up to the utterance; the last one says it is finished.
    expect(input.map((r) => r.inputTranscription?.text ?? '').join('')).toBe(
      'What is the weather in Paris?',
    );
    expect(input.map((r) => r.inputTranscription?.finished)).toEqual([
      ...input.slice(0, -1).map(() => false),
      true,
    ]);
    expect(input.slice(0, -1).every((r) => r.partial)).toBe(true);
    expect(audioBytes(responses)).toBe(400 * 48);
    const audio = responses.filter((r) => r.content?.parts[0]?.inlineData);
    expect(audio.every((r) => r.partial === true && r.content?.role === 'model')).toBe(true);
    const output = responses.filter((r) => r.outputTranscription);
    expect(output.map((r) => r.outputTranscription?.text ?? '').join('')).toBe(
      'It is sunny in Paris.',
    );
    expect(output.at(-1)?.outputTranscription?.finished).toBe(true);
    expect(output.filter((r) => r.outputTranscription?.finished)).toHaveLength(1);
    expect(responses.at(-1)).toEqual({
      turnComplete: true,
      usageMetadata: { promptTokenCount: 31, candidatesTokenCount: 12, totalTokenCount: 43 },
    });
    expect(responses.some((r) => r.liveSessionResumptionUpdate !== undefined)).toBe(false);
  });

  it('answers a function call made while audio streams, then asks for a new response', async () => {
    const { server, model } = await fixture.start({
      chunkDelayMs: 5,
      script: [
        {
          callsFirst: true,
          calls: [{ callId: 'call_weather_1', name: 'get_weather', args: { city: 'Paris' } }],
          audioMs: 2000,
          transcript: 'Let me look that up.',
          usage: { inputTokens: 10, outputTokens: 5 },
        },
        {
          audioMs: 80,
          transcript: 'Sunny, 21 degrees.',
          usage: { inputTokens: 30, outputTokens: 7 },
        },
      ],
    });
    const connection = fixture.track(await model.connectLive(liveRequest(), {}));
    const read = reader(connection);
    await connection.sendContent({ role: 'user', parts: [{ text: 'Weather in Paris?' }] });
    const call = await read.until((r) => r.content?.parts[0]?.functionCall !== undefined);
    expect(call.content?.parts[0]?.functionCall).toEqual({
      id: 'call_weather_1',
      name: 'get_weather',
      args: { city: 'Paris' },
    });
    // The tool answers while the first response is still sending audio.
    const audioBefore = audioBytes(read.responses);
    expect(audioBefore).toBeLessThan(2000 * 48);
    await connection.sendContent({
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'call_weather_1',
            name: 'get_weather',
            response: { sky: 'sunny' },
          },
        },
      ],
    });
    await read.until((r) => r.turnComplete === true);

    const events = server.connections[0]?.events ?? [];
    const types = events.map((e) => e.type);
    expect(types).toEqual([
      'session.update',
      'conversation.item.create',
      'response.create',
      'conversation.item.create',
      'response.create',
    ]);
    expect(events[3]).toMatchObject({
      item: { type: 'function_call_output', call_id: 'call_weather_1', output: '{"sky":"sunny"}' },
    });
    // One turn: the first response's end is no turn boundary; the turn's usage adds up both.
    expect(read.responses.filter((r) => r.turnComplete || r.usageMetadata)).toEqual([
      {
        turnComplete: true,
        usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12, totalTokenCount: 52 },
      },
    ]);
    const spoken = read.responses.map((r) => r.outputTranscription?.text ?? '').join('');
    expect(spoken).toBe('Let me look that up.Sunny, 21 degrees.');
    expect(audioBytes(read.responses)).toBe(2080 * 48);
  });

  it('on barge-in marks the answer interrupted, cancels it and truncates it at the audio played', async () => {
    const { server, model } = await fixture.start({
      script: [
        {
          // Big chunks: 3 s of audio has arrived at the barge-in, far more than can have played.
          audioMs: 10_000,
          audioChunkMs: 1000,
          transcript: 'A very long answer that the user cuts short.',
          bargeInAfterChunks: 3,
        },
        { audioMs: 40, transcript: 'Sure.' },
      ],
    });
    const connection = fixture.track(await model.connectLive(liveRequest(), {}));
    const read = reader(connection);
    await connection.sendContent({ role: 'user', parts: [{ text: 'Tell me a story.' }] });
    await read.until((r) => r.interrupted === true);
    await read.until((r) => r.turnComplete === true);
    await expect
      .poll(() =>
        server.connections[0]?.events.some((e) => e.type === 'conversation.item.truncate'),
      )
      .toBe(true);

    const events = server.connections[0]?.events ?? [];
    const audioItem = server.connections[0]?.items.find((i) => i.role === 'assistant');
    const truncate = events.find((e) => e.type === 'conversation.item.truncate');
    expect(truncate).toMatchObject({ item_id: audioItem?.id, content_index: 0 });
    expect(truncate?.audio_end_ms).toBeGreaterThanOrEqual(0);
    expect(truncate?.audio_end_ms).toBeLessThan(3000);
    expect(events.some((e) => e.type === 'response.cancel')).toBe(true);
    const interruptedAt = read.responses.findIndex((r) => r.interrupted);
    expect(audioBytes(read.responses.slice(interruptedAt))).toBe(0);
    expect(audioBytes(read.responses)).toBe(3000 * 48);

    // The conversation goes on after the interruption (the benign cancel race is ignored).
    await connection.sendContent({ role: 'user', parts: [{ text: 'Just say sure.' }] });
    await expect.poll(() => read.responses.filter((r) => r.turnComplete).length).toBe(2);
    const after = read.responses.slice(read.responses.findIndex((r) => r.turnComplete) + 1);
    expect(after.map((r) => r.outputTranscription?.text ?? '').join('')).toBe('Sure.');
  });

  it('drives turns with activity signals when automatic detection is off, and answers in text', async () => {
    const { server, model } = await fixture.start({
      script: [{ text: 'Heard you loud and clear.' }],
      inputTranscripts: ['Testing one two.'],
    });
    const request = liveRequest();
    request.liveConnectConfig = {
      responseModalities: ['TEXT'],
      inputAudioTranscription: {},
      realtimeInputConfig: { automaticActivityDetection: { disabled: true } },
    };
    const connection = fixture.track(await model.connectLive(request, {}));
    const read = reader(connection);
    await connection.sendRealtime({ activityEnd: true }); // nothing spoken yet: no commit
    await connection.sendRealtime({ activityStart: true });
    for (let i = 0; i < 5; i += 1)
      await connection.sendRealtime({
        blob: { mimeType: 'audio/pcm;rate=16000', data: mic16k(20) },
      });
    await connection.sendRealtime({ activityEnd: true });
    await read.until((r) => r.turnComplete === true);

    const record = server.connections[0];
    expect(record?.events[0]).toMatchObject({
      session: { audio: { input: { turn_detection: null } } },
    });
    expect(record?.session.output_modalities).toEqual(['text']);
    expect(
      record?.events.map((e) => e.type).filter((t) => t !== 'input_audio_buffer.append'),
    ).toEqual([
      'session.update',
      'input_audio_buffer.clear',
      'input_audio_buffer.commit',
      'response.create',
    ]);
    const text = read.responses.filter((r) => r.content?.parts[0]?.text !== undefined);
    expect(text.at(-1)).toEqual({
      content: { role: 'model', parts: [{ text: 'Heard you loud and clear.' }] },
    });
    expect(text.slice(0, -1).every((r) => r.partial)).toBe(true);
    const heard = read.responses.filter((r) => r.inputTranscription);
    expect(heard.map((r) => r.inputTranscription?.text ?? '').join('')).toBe('Testing one two.');
    expect(heard.at(-1)?.inputTranscription?.finished).toBe(true);
  });

  it('resumes a dropped connection by sending the history on a new one (no resumption handle)', async () => {
    const { server, model } = await fixture.start({
      script: [{ audioMs: 40, transcript: 'Welcome back.' }],
    });
    const first = fixture.track(await model.connectLive(liveRequest(), {}));
    const firstRead = reader(first);
    server.dropAll(1012, 'service restart');
    const dropped = await firstRead.ended.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(ModelStreamError.isInstance(dropped)).toBe(true);
    expect(dropped).toMatchObject({ kind: 'interrupted', retryable: true });
    await expect(first.sendContent({ role: 'user', parts: [{ text: 'late' }] })).rejects.toBe(
      dropped,
    );

    const second = fixture.track(await model.connectLive(liveRequest(), {}));
    const read = reader(second);
    await second.sendHistory([
      { role: 'user', parts: [{ text: 'What is the weather in Paris?' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'call_1', name: 'get_weather', args: { city: 'Paris' } } }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_1', name: 'get_weather', response: { sky: 'sunny' } } },
        ],
      },
      { role: 'model', parts: [{ text: 'It is sunny.' }] },
    ]);
    await second.sendContent({ role: 'user', parts: [{ text: 'I am back.' }] });
    await read.until((r) => r.turnComplete === true);
    const items = server.connections[1]?.events
      .filter((e) => e.type === 'conversation.item.create')
      .map((e) => e.item);
    expect(items).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'What is the weather in Paris?' }],
      },
      {
        type: 'function_call',
        call_id: 'call_1',
        name: 'get_weather',
        arguments: '{"city":"Paris"}',
      },
      { type: 'function_call_output', call_id: 'call_1', output: '{"sky":"sunny"}' },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'It is sunny.' }],
      },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'I am back.' }] },
    ]);
    expect(server.connections[1]?.events.filter((e) => e.type === 'response.create')).toHaveLength(
      1,
    );
    expect(read.responses.some((r) => r.liveSessionResumptionUpdate !== undefined)).toBe(false);
  });

  it('closes idempotently: the stream ends, later sends are refused, the server sees a clean close', async () => {
    const { server, model } = await fixture.start();
    const controller = new AbortController();
    const connection = await model.connectLive(liveRequest(), { signal: controller.signal });
    const read = reader(connection);
    await Promise.all([connection.close(), connection.close()]);
    await connection.close();
    await expect(read.ended).resolves.toBeUndefined();
    await expect(
      connection.sendRealtime({ blob: { mimeType: 'audio/pcm;rate=16000', data: mic16k(20) } }),
    ).rejects.toSatisfy(ModelStreamError.isInstance);
    controller.abort();
    await expect.poll(() => server.connections[0]?.open).toBe(false);
  });
});
