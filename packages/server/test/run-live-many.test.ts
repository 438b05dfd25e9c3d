import { InMemorySessionService, LlmAgent } from '@adk/core';
import { FakeLiveModel } from '@adk/core/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import { createAdkServer, listen, type RunningServer } from '../src';

const SESSIONS = 200;
let server: RunningServer;
let model: FakeLiveModel;
let sessionService: InMemorySessionService;

beforeAll(async () => {
  model = new FakeLiveModel({
    respond: (message) =>
      message.type === 'realtime'
        ? [
            {
              partial: true,
              content: {
                role: 'model',
                parts: [{ inlineData: { mimeType: 'audio/pcm;rate=24000', data: 'AAAA' } }],
              },
            },
            { outputTranscription: { text: 'ok', finished: true } },
            { turnComplete: true },
          ]
        : undefined,
  });
  sessionService = new InMemorySessionService();
  const agent = new LlmAgent({ name: 'voice', model });
  server = await listen(createAdkServer({ apps: { voice: { agent } }, sessionService }), {
    port: 0,
  });
});
afterAll(async () => {
  await server.close();
});

it(`holds ${SESSIONS} live sessions at once on one server, each answered and closed`, async () => {
  const ids = await Promise.all(
    Array.from(
      { length: SESSIONS },
      async (_, index) =>
        (await sessionService.createSession({ appName: 'voice', userId: `u${index}` })).id,
    ),
  );
  const sockets = ids.map((id, index) => {
    const ws = new WebSocket(
      `${server.url.replace('http', 'ws')}/run_live?app_name=voice&user_id=u${index}&session_id=${id}`,
    );
    const done = new Promise<number>((resolve, reject) => {
      ws.on('message', (data) => {
        if ((JSON.parse(String(data)) as { turnComplete?: boolean }).turnComplete)
          ws.send(JSON.stringify({ close: true }));
      });
      ws.on('close', (code) => resolve(code));
      ws.on('error', reject);
    });
    const opened = new Promise<void>((resolve) => ws.once('open', () => resolve()));
    return { ws, done, opened };
  });
  await Promise.all(sockets.map((socket) => socket.opened));
  await expect.poll(() => model.openConnections.length).toBe(SESSIONS);
  for (const { ws } of sockets)
    ws.send(JSON.stringify({ blob: { mime_type: 'audio/pcm', data: 'AQID' } }));
  expect(await Promise.all(sockets.map((socket) => socket.done))).toEqual(
    Array(SESSIONS).fill(1000),
  );
  expect(model.openConnections).toEqual([]);
  const stored = await sessionService.getSession({
    appName: 'voice',
    userId: 'u7',
    sessionId: ids[7]!,
  });
  expect(
    stored?.events.map(
      (event) => event.content?.parts[0]?.text ?? (event.turnComplete ? 'turn' : ''),
    ),
  ).toEqual(['ok', 'turn']);
});
