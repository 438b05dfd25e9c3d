import { connect, type NetConnectOpts } from 'node:net';

import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeServerEvent } from 'openai/resources/realtime/realtime';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeOpenAIRealtime, type FakeRealtimeServer } from '../src';

let server: FakeRealtimeServer | undefined;
let client: OpenAIRealtimeWS | undefined;
afterEach(async () => {
  client?.close();
  client = undefined;
  await server?.close();
  server = undefined;
});

/**
 * The official client always dials `wss:`; the fake speaks plain `ws:` on 127.0.0.1, so the
 * client's socket is opened with a plain TCP connection (the frames are the client's own).
 */
function officialClient(baseURL: string): OpenAIRealtimeWS {
  const openai = new OpenAI({ apiKey: 'sk-fake', baseURL });
  return new OpenAIRealtimeWS(
    {
      model: 'gpt-realtime',
      options: { createConnection: (options: NetConnectOpts) => connect(options) } as object,
    },
    openai,
  );
}

/** Collects the client's parsed events until `stop` says so. */
function eventsUntil(
  rt: OpenAIRealtimeWS,
  stop: (event: RealtimeServerEvent, seen: RealtimeServerEvent[]) => boolean,
): Promise<RealtimeServerEvent[]> {
  const seen: RealtimeServerEvent[] = [];
  return new Promise((resolve, reject) => {
    rt.on('error', reject);
    rt.on('event', (event) => {
      seen.push(event);
      if (stop(event, seen)) resolve(seen);
    });
  });
}

const pcm16k24 = (ms: number) => Buffer.alloc(ms * 48).toString('base64');

describe('fake OpenAI Realtime server, read by the official openai client', () => {
  it('answers audio with transcripts and audio in the GA event shapes', async () => {
    server = await startFakeOpenAIRealtime({
      apiKey: 'sk-fake',
      script: [{ audioMs: 120, transcript: 'Hello there friend.' }],
      inputTranscripts: ['Hi, who is this?'],
    });
    const rt = (client = officialClient(server.baseURL));
    const done = eventsUntil(rt, (event) => event.type === 'response.done');
    const created = new Promise<void>((resolve) => rt.on('session.created', () => resolve()));
    await created;
    rt.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        output_modalities: ['audio'],
        audio: {
          input: {
            format: { type: 'audio/pcm', rate: 24000 },
            transcription: { model: 'gpt-4o-mini-transcribe' },
            turn_detection: null,
          },
          output: { voice: 'marin' },
        },
      },
    });
    rt.send({ type: 'input_audio_buffer.append', audio: pcm16k24(100) });
    rt.send({ type: 'input_audio_buffer.commit' });
    rt.send({ type: 'response.create' });
    const events = await done;

    const types = events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['session.created', 'session.updated']);
    const input = events.find(
      (event) => event.type === 'conversation.item.input_audio_transcription.completed',
    );
    expect(
      input?.type === 'conversation.item.input_audio_transcription.completed' && input.transcript,
    ).toBe('Hi, who is this?');
    const audio = events.flatMap((event) =>
      event.type === 'response.output_audio.delta' ? [Buffer.from(event.delta, 'base64')] : [],
    );
    expect(Buffer.concat(audio).length).toBe(120 * 48);
    const transcript = events
      .flatMap((event) =>
        event.type === 'response.output_audio_transcript.delta' ? [event.delta] : [],
      )
      .join('');
    expect(transcript).toBe('Hello there friend.');
    const last = events.at(-1);
    expect(last?.type === 'response.done' && last.response.status).toBe('completed');
    expect(last?.type === 'response.done' && last.response.usage?.total_tokens).toBeGreaterThan(0);
    const updated = events[1];
    expect(updated?.type === 'session.updated' && updated.session.type).toBe('realtime');
    expect(server.connections[0]?.headers.authorization).toBe('Bearer sk-fake');
    expect(server.connections[0]?.url).toBe('/v1/realtime?model=gpt-realtime');
  });

  it('streams a function call, then answers its output in a new response', async () => {
    server = await startFakeOpenAIRealtime({
      script: [
        {
          audioMs: 80,
          transcript: 'Let me check.',
          calls: [{ name: 'get_weather', args: { city: 'Paris' } }],
        },
        { text: 'Sunny in Paris.' },
      ],
    });
    const rt = (client = officialClient(server.baseURL));
    let responses = 0;
    const seen = eventsUntil(rt, (event) => event.type === 'response.done' && ++responses === 2);
    rt.on('response.function_call_arguments.done', (event) => {
      rt.send({
        type: 'conversation.item.create',
        item: { type: 'function_call_output', call_id: event.call_id, output: '{"sky":"clear"}' },
      });
      rt.send({
        type: 'session.update',
        session: { type: 'realtime', output_modalities: ['text'] },
      });
    });
    rt.on('response.done', (event) => {
      if (event.response.output?.some((item) => item.type === 'function_call'))
        rt.send({ type: 'response.create' });
    });
    rt.on('session.created', () => rt.send({ type: 'response.create' }));
    const events = await seen;
    const call = events.find((event) => event.type === 'response.function_call_arguments.done');
    expect(
      call?.type === 'response.function_call_arguments.done' && JSON.parse(call.arguments),
    ).toEqual({
      city: 'Paris',
    });
    const text = events.filter((event) => event.type === 'response.output_text.done');
    expect(text.map((event) => event.type === 'response.output_text.done' && event.text)).toEqual([
      'Sunny in Paris.',
    ]);
    expect(server.connections[0]?.items.some((item) => item.type === 'function_call_output')).toBe(
      true,
    );
  });

  it('barges in: speech_started mid-answer, the client cancels and truncates', async () => {
    server = await startFakeOpenAIRealtime({
      script: [{ audioMs: 400, transcript: 'A long answer', bargeInAfterChunks: 2 }],
    });
    const rt = (client = officialClient(server.baseURL));
    let itemId = '';
    rt.on('response.output_audio.delta', (event) => {
      itemId = event.item_id;
    });
    rt.on('session.created', () => {
      rt.send({
        type: 'session.update',
        session: {
          type: 'realtime',
          audio: { input: { turn_detection: { type: 'server_vad', interrupt_response: false } } },
        },
      });
      rt.send({ type: 'response.create' });
    });
    rt.on('input_audio_buffer.speech_started', () => {
      rt.send({ type: 'response.cancel' });
      rt.send({
        type: 'conversation.item.truncate',
        item_id: itemId,
        content_index: 0,
        audio_end_ms: 50,
      });
    });
    const events = await eventsUntil(
      rt,
      (_event, seen) =>
        seen.some((e) => e.type === 'response.done') &&
        seen.some((e) => e.type === 'conversation.item.truncated'),
    );
    const done = events.find((event) => event.type === 'response.done');
    expect(done?.type === 'response.done' && done.response.status).toBe('cancelled');
    expect(events.filter((event) => event.type === 'response.output_audio.delta')).toHaveLength(2);
    const truncated = events.find((event) => event.type === 'conversation.item.truncated');
    expect(truncated?.type === 'conversation.item.truncated' && truncated.audio_end_ms).toBe(50);
  });

  it('reports error events through the client, refuses a bad key and closes with a code', async () => {
    server = await startFakeOpenAIRealtime({
      apiKey: 'right',
      script: [
        { error: { type: 'invalid_request_error', code: 'bad_thing', message: 'No.' } },
        { close: { code: 1011, reason: 'internal error' } },
      ],
    });
    const rt = (client = officialClient(server.baseURL));
    const refused = await new Promise<Error>((resolve) => rt.on('error', resolve));
    expect(refused.message).toContain('401');

    const openai = new OpenAI({ apiKey: 'right', baseURL: server.baseURL });
    const ok = (client = new OpenAIRealtimeWS(
      {
        model: 'gpt-realtime',
        options: { createConnection: (options: NetConnectOpts) => connect(options) } as object,
      },
      openai,
    ));
    ok.on('session.created', () => ok.send({ type: 'response.create' }));
    const error = await new Promise<{ error?: { code?: string | null } }>((resolve) =>
      ok.on('error', (e) => resolve(e as never)),
    );
    expect(error.error?.code).toBe('bad_thing');
    const closed = new Promise<number>((resolve) => ok.socket.on('close', (code) => resolve(code)));
    ok.send({ type: 'response.create' });
    expect(await closed).toBe(1011);
  });
});
