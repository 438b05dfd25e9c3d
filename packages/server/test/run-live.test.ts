import { InMemorySessionService, LlmAgent, PlainBlob, type Event } from '@adk/core';
import { FakeLiveModel, type FakeLiveResponder } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import { createAdkServer, LIVE_CLOSE_CODES, listen, type RunningServer } from '../src';

const USER = 'u1';
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(
  respond: FakeLiveResponder,
  live?: { queueCapacity?: number },
  token?: string,
) {
  const model = new FakeLiveModel({ respond });
  const agent = new LlmAgent({ name: 'voice', model, instruction: 'Talk.' });
  const sessionService = new InMemorySessionService();
  const session = await sessionService.createSession({ appName: 'voice', userId: USER });
  const app = createAdkServer({
    apps: { voice: { agent } },
    sessionService,
    ...(live ? { live } : {}),
    ...(token ? { token } : {}),
  });
  server = await listen(app, { port: 0 });
  const read = async () =>
    (await sessionService.getSession({ appName: 'voice', userId: USER, sessionId: session.id }))!;
  return { model, sessionId: session.id, read };
}

/** A client socket with its frames (parsed) and its close code. */
function connect(query: string) {
  const ws = new WebSocket(`${server!.url.replace('http', 'ws')}/run_live?${query}`);
  const frames: Array<Event & { error?: string }> = [];
  ws.on('message', (data) => frames.push(JSON.parse(String(data))));
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed, opened };
}

const pcm = (bytes: number[]) => Buffer.from(bytes).toString('base64');

describe('GET /run_live', () => {
  it('holds a voice exchange as the ADK web UI speaks it, and the session reads back as text', async () => {
    const { model, sessionId, read } = await start((message) =>
      message.type === 'realtime' && 'blob' in message.input && message.input.blob.data === pcm([2])
        ? [
            { inputTranscription: { text: 'Hello there', finished: true } },
            { outputTranscription: { text: 'Hi!' } },
            {
              partial: true,
              content: {
                role: 'model',
                parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data: 'AAAA' } }],
              },
            },
            { turnComplete: true },
          ]
        : undefined,
    );
    const client = connect(
      `app_name=voice&user_id=${USER}&session_id=${sessionId}&modalities=AUDIO`,
    );
    await client.opened;
    client.ws.send(JSON.stringify({ blob: { mime_type: 'audio/pcm', data: pcm([1]) } }));
    client.ws.send(JSON.stringify({ blob: { mime_type: 'audio/pcm', data: pcm([2]) } }));
    await expect.poll(() => client.frames.some((frame) => frame.turnComplete)).toBe(true);
    client.ws.send(JSON.stringify({ close: true }));
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.normal);

    // The model got the audio in order, with audio out and both transcriptions asked for.
    const connection = model.connections[0]!;
    expect(connection.request.liveConnectConfig).toMatchObject({
      responseModalities: ['AUDIO'],
      inputAudioTranscription: {},
      outputAudioTranscription: {},
    });
    expect(
      connection.received.map((m) =>
        m.type === 'realtime' && 'blob' in m.input ? m.input.blob.data : m.type,
      ),
    ).toEqual([pcm([1]), pcm([2])]);
    // Frames are events (camelCase JSON, as /run_sse): audio partial, transcripts, the boundary.
    const audio = client.frames.find((frame) => frame.content?.parts[0]?.inlineData);
    expect(audio).toMatchObject({
      partial: true,
      author: 'voice',
      content: { parts: [{ inlineData: { data: 'AAAA' } }] },
    });
    const stored = (await read()).events;
    expect(
      stored.map(
        (event) =>
          `${event.author}: ${event.content?.parts[0]?.text ?? (event.turnComplete ? '<turn complete>' : '')}`,
      ),
    ).toEqual(['user: Hello there', 'voice: Hi!', 'voice: <turn complete>']);
    expect(model.openConnections).toEqual([]);
  });

  it("sends a provider's plain audio chunks as text frames equal to the event's JSON", async () => {
    const data = pcm(Array.from({ length: 960 }, (_, i) => i & 255));
    const { sessionId } = await start((message) =>
      message.type === 'realtime'
        ? [
            { outputTranscription: { text: 'Hi' } },
            ...[0, 1].map(() => ({
              partial: true,
              content: {
                role: 'model' as const,
                parts: [{ inlineData: PlainBlob.of('audio/pcm;rate=24000', data) }],
              },
            })),
            { turnComplete: true },
          ]
        : undefined,
    );
    const client = connect(`app_name=voice&user_id=${USER}&session_id=${sessionId}`);
    const binary: boolean[] = [];
    client.ws.on('message', (_data, isBinary) => binary.push(isBinary));
    await client.opened;
    client.ws.send(JSON.stringify({ blob: { mime_type: 'audio/pcm', data: pcm([1]) } }));
    await expect.poll(() => client.frames.some((frame) => frame.turnComplete)).toBe(true);
    const chunks = client.frames.filter((frame) => frame.content?.parts[0]?.inlineData);
    expect(chunks).toHaveLength(2);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({
        partial: true,
        author: 'voice',
        content: {
          role: 'model',
          parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data } }],
        },
      });
    }
    expect(binary.every((isBinary) => !isBinary)).toBe(true);
    client.ws.send(JSON.stringify({ close: true }));
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.normal);
  });

  it('takes text turns with modalities=TEXT', async () => {
    const { model, sessionId, read } = await start((message) =>
      message.type === 'content'
        ? [{ content: { role: 'model', parts: [{ text: 'Pong.' }] } }, { turnComplete: true }]
        : undefined,
    );
    const client = connect(
      `app_name=voice&user_id=${USER}&session_id=${sessionId}&modalities=TEXT`,
    );
    await client.opened;
    client.ws.send(JSON.stringify({ content: { role: 'user', parts: [{ text: 'Ping' }] } }));
    await expect.poll(() => client.frames.some((frame) => frame.turnComplete)).toBe(true);
    client.ws.close();
    await client.closed;
    expect(model.connections[0]!.request.liveConnectConfig?.responseModalities).toEqual(['TEXT']);
    expect(
      (await read()).events.map((event) => event.content?.parts[0]?.text).filter(Boolean),
    ).toEqual(['Ping', 'Pong.']);
  });

  it("takes the switches of the official web UI's call panel as query flags", async () => {
    const { model, sessionId } = await start(() => undefined);
    // No artifact service here: save_live_blob is ignored instead of failing the call.
    const client = connect(
      `app_name=voice&user_id=${USER}&session_id=${sessionId}&proactive_audio=true&enable_affective_dialog=true&enable_session_resumption=true&save_live_blob=true`,
    );
    await client.opened;
    await expect.poll(() => model.connections.length).toBe(1);
    client.ws.send(JSON.stringify({ close: true }));
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.normal);
    expect(model.connections[0]!.request.liveConnectConfig).toMatchObject({
      responseModalities: ['AUDIO'],
      proactivity: { proactiveAudio: true },
      enableAffectiveDialog: true,
      sessionResumption: {},
    });
  });

  it('with a server token, takes it as the access_token query parameter (browsers cannot set headers)', async () => {
    const { model, sessionId } = await start(() => undefined, undefined, 's3cret');
    const query = `app_name=voice&user_id=${USER}&session_id=${sessionId}`;
    const refused = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${server!.url.replace('http', 'ws')}/run_live?${query}`);
      ws.on('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
      ws.on('error', () => undefined);
    });
    expect(refused).toBe('401');
    const wrong = await new Promise<string>((resolve) => {
      const ws = new WebSocket(
        `${server!.url.replace('http', 'ws')}/run_live?${query}&access_token=nope`,
      );
      ws.on('unexpected-response', (_request, response) => resolve(String(response.statusCode)));
      ws.on('error', () => undefined);
    });
    expect(wrong).toBe('401');
    const client = connect(`${query}&access_token=s3cret`);
    await client.opened;
    await expect.poll(() => model.connections.length).toBe(1);
    client.ws.send(JSON.stringify({ close: true }));
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.normal);
    // Only the live route takes the query parameter.
    const sessions = await fetch(
      `${server!.url}/apps/voice/users/${USER}/sessions?access_token=s3cret`,
    );
    expect(sessions.status).toBe(401);
  });

  it('answers a malformed frame with a typed error frame and close code 1007; what was said stays stored', async () => {
    const { model, sessionId, read } = await start((message) =>
      message.type === 'content' ? [{ outputTranscription: { text: 'Half a sen' } }] : undefined,
    );
    const client = connect(`app_name=voice&user_id=${USER}&session_id=${sessionId}`);
    await client.opened;
    client.ws.send(JSON.stringify({ content: { parts: [{ text: 'Go on' }] } }));
    await expect.poll(() => client.frames.some((frame) => frame.outputTranscription)).toBe(true);
    client.ws.send('{"blob": {"mime_type": "audio/pcm"}}');
    const { code } = await client.closed;
    expect(code).toBe(LIVE_CLOSE_CODES.invalidPayload);
    expect(client.frames.find((frame) => frame.errorCode)).toMatchObject({
      errorCode: 'INVALID_LIVE_REQUEST',
      error: expect.stringContaining('blob'),
    });
    // The run ended as if the user had closed: the half utterance is stored once, as text.
    const stored = (await read()).events;
    expect(stored.map((event) => event.content?.parts[0]?.text)).toEqual(['Go on', 'Half a sen']);
    expect(stored.some((event) => event.partial)).toBe(false);
    expect(model.openConnections).toEqual([]);
  });

  it('refuses binary frames (1003), unknown sessions (1002)', async () => {
    const { sessionId } = await start(() => undefined);
    const binary = connect(`app_name=voice&user_id=${USER}&session_id=${sessionId}`);
    await binary.opened;
    binary.ws.send(Buffer.from([1, 2, 3]));
    expect((await binary.closed).code).toBe(LIVE_CLOSE_CODES.unsupportedData);
    const missing = connect(`app_name=voice&user_id=${USER}&session_id=nope`);
    expect(await missing.closed).toEqual({
      code: LIVE_CLOSE_CODES.notFound,
      reason: 'Session not found',
    });
    const noApp = connect(`app_name=other&user_id=${USER}&session_id=${sessionId}`);
    expect((await noApp.closed).code).toBe(LIVE_CLOSE_CODES.notFound);
  });

  it('closes the model connection when the client goes away', async () => {
    const { model, sessionId } = await start(() => undefined);
    const client = connect(`app_name=voice&user_id=${USER}&session_id=${sessionId}`);
    await client.opened;
    await expect.poll(() => model.connections.length).toBe(1);
    client.ws.terminate();
    await expect.poll(() => model.openConnections.length).toBe(0);
  });

  it('stops reading a fast client while the model is slow, and loses nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The first chunk blocks the connection's send until released: the queue (capacity 2) fills.
    const { model, sessionId } = await start(
      async (message) => {
        if (
          message.type === 'realtime' &&
          'blob' in message.input &&
          message.input.blob.data === pcm([0])
        )
          await gate;
        return undefined;
      },
      { queueCapacity: 2 },
    );
    const client = connect(`app_name=voice&user_id=${USER}&session_id=${sessionId}`);
    await client.opened;
    for (let index = 0; index < 40; index++) {
      client.ws.send(JSON.stringify({ blob: { mime_type: 'audio/pcm', data: pcm([index]) } }));
    }
    await expect.poll(() => model.connections[0]?.received.length).toBe(1);
    release();
    await expect.poll(() => model.connections[0]!.received.length).toBe(40);
    expect(
      model.connections[0]!.received.map((m) =>
        m.type === 'realtime' && 'blob' in m.input
          ? Buffer.from(m.input.blob.data, 'base64')[0]
          : -1,
      ),
    ).toEqual(Array.from({ length: 40 }, (_, index) => index));
    client.ws.send(JSON.stringify({ close: true }));
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.normal);
  });

  it('gives a client slow to read every audio chunk, in order (the run waits while its socket is full)', async () => {
    // 800 chunks of 12 KB (16 KB of base64): 13 MB, past what the loopback socket holds and the
    // server socket's 1 MiB high-water mark.
    const chunks = Array.from({ length: 800 }, (_, index) => {
      const bytes = Buffer.alloc(12 * 1024, index);
      bytes.writeUInt16LE(index, 0);
      return bytes.toString('base64');
    });
    const { sessionId } = await start((message) =>
      message.type === 'realtime' && 'blob' in message.input
        ? [
            ...chunks.map((data) => ({
              partial: true,
              content: {
                role: 'model',
                parts: [{ inlineData: PlainBlob.of('audio/pcm;rate=24000', data) }],
              },
            })),
            { turnComplete: true },
          ]
        : undefined,
    );
    const client = connect(
      `app_name=voice&user_id=${USER}&session_id=${sessionId}&modalities=AUDIO`,
    );
    await client.opened;
    client.ws.pause();
    client.ws.send(JSON.stringify({ blob: { mime_type: 'audio/pcm', data: pcm([1]) } }));
    // Not read for a while: the server's socket fills up.
    await new Promise((resolve) => setTimeout(resolve, 200));
    client.ws.resume();
    await expect.poll(() => client.frames.some((frame) => frame.turnComplete)).toBe(true);
    const audio = client.frames.flatMap((frame) =>
      (frame.content?.parts ?? []).flatMap((part) =>
        part.inlineData ? [Buffer.from(part.inlineData.data, 'base64').readUInt16LE(0)] : [],
      ),
    );
    expect(audio).toEqual(chunks.map((_, index) => index));
    client.ws.send(JSON.stringify({ close: true }));
    expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.normal);
  });
});
