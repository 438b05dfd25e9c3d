import { afterEach, describe, expect, it } from 'vitest';

import { audioBytes, liveRequest, reader, RealtimeFixture } from './realtime-helpers';

const fixture = new RealtimeFixture();
afterEach(() => fixture.stop());

describe('OpenAI Realtime live connection: more input and flow control', () => {
  it('sends a camera frame as a user image item without asking for a response', async () => {
    const { server, model } = await fixture.start({
      script: [{ audioMs: 40, transcript: 'A cat.' }],
    });
    const connection = fixture.track(await model.connectLive(liveRequest(), {}));
    const read = reader(connection);
    await connection.sendRealtime({ blob: { mimeType: 'image/jpeg', data: '/9j/AAAA' } });
    await connection.sendContent({ role: 'user', parts: [{ text: 'What do you see?' }] });
    await read.until((r) => r.turnComplete === true);
    const events = server.connections[0]?.events ?? [];
    expect(events.map((e) => e.type)).toEqual([
      'session.update',
      'conversation.item.create',
      'conversation.item.create',
      'response.create',
    ]);
    expect(events[1]).toMatchObject({
      item: {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_image', image_url: 'data:image/jpeg;base64,/9j/AAAA' }],
      },
    });
  });

  it('speaks Azure OpenAI: the api-key header, the provider query and headers on the upgrade', async () => {
    const { server, model } = await fixture.start(
      {},
      {
        apiKeyHeader: 'api-key',
        query: { 'api-version': '2025-08-28' },
        headers: { 'x-trace': 't1' },
        project: 'proj_1',
      },
    );
    fixture.track(await model.connectLive(liveRequest(), {}));
    const record = server.connections[0];
    expect(record?.url).toBe('/v1/realtime?model=gpt-realtime&api-version=2025-08-28');
    expect(record?.headers).toMatchObject({
      'api-key': 'sk-test',
      'x-trace': 't1',
      'openai-project': 'proj_1',
    });
    expect(record?.headers.authorization).toBeUndefined();
  });

  it('with NO_INTERRUPTION the user speaking over the answer does not stop it', async () => {
    const { server, model } = await fixture.start({
      script: [{ audioMs: 200, transcript: 'Listen to all of this.', bargeInAfterChunks: 2 }],
    });
    const request = liveRequest();
    request.liveConnectConfig = {
      ...request.liveConnectConfig,
      realtimeInputConfig: { activityHandling: 'NO_INTERRUPTION' },
    };
    const connection = fixture.track(await model.connectLive(request, {}));
    const read = reader(connection);
    await connection.sendContent({ role: 'user', parts: [{ text: 'Talk.' }] });
    // The fake pauses at the barge-in until told to cancel; nothing cancels, so the answer stays open.
    await expect.poll(() => audioBytes(read.responses)).toBe(80 * 48);
    const events = server.connections[0]?.events ?? [];
    expect(events[0]).toMatchObject({
      session: { audio: { input: { turn_detection: { interrupt_response: false } } } },
    });
    expect(read.responses.some((r) => r.interrupted)).toBe(false);
    expect(
      events.some((e) => e.type === 'response.cancel' || e.type === 'conversation.item.truncate'),
    ).toBe(false);
  });

  it('stops reading the socket while the reader is behind, and loses nothing', async () => {
    const { model } = await fixture.start(
      { script: [{ audioMs: 4000, audioChunkMs: 20, transcript: 'A long answer.' }] },
      { realtime: { highWaterMark: 8 } },
    );
    const connection = fixture.track(await model.connectLive(liveRequest(), {}));
    await connection.sendContent({ role: 'user', parts: [{ text: 'Go.' }] });
    let bytes = 0;
    let count = 0;
    for await (const response of connection.receive()) {
      count += 1;
      bytes += audioBytes([response]);
      // A slow consumer: yield to the event loop now and then.
      if (count % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (response.turnComplete) break;
    }
    expect(bytes).toBe(4000 * 48);
  });
});
