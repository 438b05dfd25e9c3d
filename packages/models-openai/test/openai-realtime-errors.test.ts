import { createServer } from 'node:net';

import { InvalidArgumentError, type LiveConnection } from '@adk/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  createOpenAI,
  MissingApiKeyError,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
  ModelTimeoutError,
} from '../src';
import { liveRequest, openHandles, reader, RealtimeFixture } from './realtime-helpers';

const fixture = new RealtimeFixture();
// Timers are faked (sockets are real) so that a timer left behind is counted exactly and the
// connect timeout elapses without waiting.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await fixture.stop();
});

/** Opens a connection, sends a text turn and returns how its stream ended. */
async function failingTurn(connection: LiveConnection): Promise<unknown> {
  const read = reader(connection);
  await connection.sendContent({ role: 'user', parts: [{ text: 'hello' }] });
  return read.ended.then(
    () => 'ended cleanly',
    (error: unknown) => error,
  );
}

/** Waits until the fake saw every connection close and this process holds no extra handle. */
async function expectNothingLeftOpen(before: { sockets: number }): Promise<void> {
  // Both ends closed (the ws close timers go with the sockets), then no timer is left.
  await expect.poll(() => fixture.server?.connections.every((c) => !c.open)).toBe(true);
  await expect.poll(() => openHandles().sockets).toBeLessThanOrEqual(before.sockets);
  expect(vi.getTimerCount()).toBe(0);
}

describe('OpenAI Realtime live connection errors', () => {
  it('refuses a bad key with a typed 401 ModelApiError', async () => {
    const before = openHandles();
    const { model } = await fixture.start({}, { apiKey: 'sk-wrong' });
    const error = await model.connectLive(liveRequest(), {}).catch((e: unknown) => e);
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 401,
      retryable: false,
      provider: 'openai',
      providerErrorType: 'invalid_api_key',
      providerMessage: 'Incorrect API key provided.',
    });
    await expectNothingLeftOpen(before);
  });

  it('reports a 429 upgrade refusal as retryable, and a missing key before connecting', async () => {
    const { model } = await fixture.start({ handshake: { status: 429, message: 'Slow down' } });
    await expect(model.connectLive(liveRequest(), {})).rejects.toMatchObject({
      name: 'ModelApiError',
      status: 429,
      retryable: true,
    });
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const keyless = createOpenAI({ baseURL: 'https://api.openai.com/v1' })('gpt-realtime');
      await expect(keyless.connectLive(liveRequest(), {})).rejects.toSatisfy(
        MissingApiKeyError.isInstance,
      );
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });

  it('reports an unreachable server as ModelConnectionError', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const model = createOpenAI({ apiKey: 'k', baseURL: `http://127.0.0.1:${port}/v1` })(
      'gpt-realtime',
    );
    const error = await model.connectLive(liveRequest(), {}).catch((e: unknown) => e);
    expect(ModelConnectionError.isInstance(error)).toBe(true);
    expect((error as ModelConnectionError).url).toBe(`ws://127.0.0.1:${port}/v1/realtime`);
  });

  it('times out when session.created never comes, leaving no socket or timer', async () => {
    const before = openHandles();
    const { server, model } = await fixture.start(
      { handshake: 'silent' },
      { realtime: { connectTimeoutMs: 5_000 } },
    );
    const connecting = model.connectLive(liveRequest(), {}).catch((e: unknown) => e);
    await expect.poll(() => server.connections.length).toBe(1);
    await vi.advanceTimersByTimeAsync(5_000);
    const error = await connecting;
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ timeoutMs: 5_000, phase: 'response', retryable: true });
    await expectNothingLeftOpen(before);
  });

  it('stops connecting when the signal aborts, with the signal reason', async () => {
    const before = openHandles();
    const { server, model } = await fixture.start({ handshake: 'silent' });
    const controller = new AbortController();
    const connecting = model.connectLive(liveRequest(), { signal: controller.signal });
    await expect.poll(() => server.connections.length).toBe(1);
    const reason = new Error('user hung up');
    controller.abort(reason);
    await expect(connecting).rejects.toBe(reason);
    await expectNothingLeftOpen(before);
    const aborted = AbortSignal.abort(new Error('already'));
    await expect(model.connectLive(liveRequest(), { signal: aborted })).rejects.toThrow('already');
  });

  it('closes the open connection when its signal aborts later; the stream ends cleanly', async () => {
    const { server, model } = await fixture.start();
    const controller = new AbortController();
    const connection = fixture.track(
      await model.connectLive(liveRequest(), { signal: controller.signal }),
    );
    const read = reader(connection);
    controller.abort();
    await expect(read.ended).resolves.toBeUndefined();
    await expect.poll(() => server.connections[0]?.open).toBe(false);
  });

  it('ends the stream with a provider-error ModelStreamError on an error event', async () => {
    const before = openHandles();
    const { model } = await fixture.start({
      script: [
        { error: { type: 'invalid_request_error', code: 'invalid_value', message: 'Bad voice.' } },
      ],
    });
    const error = await failingTurn(fixture.track(await model.connectLive(liveRequest(), {})));
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'provider-error',
      providerErrorType: 'invalid_value',
      retryable: false,
    });
    expect((error as Error).message).toContain('Bad voice.');
    await expectNothingLeftOpen(before);
  });

  it('ends the stream with a malformed ModelStreamError on a frame that is not JSON', async () => {
    const before = openHandles();
    const { model } = await fixture.start({ script: [{ malformed: '{"type": "response.cre' }] });
    const error = await failingTurn(fixture.track(await model.connectLive(liveRequest(), {})));
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'malformed', chunk: '{"type": "response.cre' });
    await expectNothingLeftOpen(before);
  });

  it('ends the stream with a malformed ModelStreamError on a cut audio delta (read from its bytes first)', async () => {
    const before = openHandles();
    const cut = '{"type":"response.output_audio.delta","item_id":"item_1","delta":"AAAA"';
    const { model } = await fixture.start({ script: [{ malformed: cut }] });
    const error = await failingTurn(fixture.track(await model.connectLive(liveRequest(), {})));
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'malformed', chunk: cut });
    await expectNothingLeftOpen(before);
  });

  it('ends the stream with an interrupted ModelStreamError when the server closes with an error code', async () => {
    const before = openHandles();
    const { model } = await fixture.start({
      script: [{ close: { code: 1011, reason: 'internal error' } }],
    });
    const connection = fixture.track(await model.connectLive(liveRequest(), {}));
    const error = await failingTurn(connection);
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'interrupted', retryable: true });
    expect((error as Error).message).toContain('1011 (internal error)');
    await expect(connection.sendContent({ role: 'user', parts: [{ text: 'again' }] })).rejects.toBe(
      error,
    );
    await connection.close();
    await expectNothingLeftOpen(before);
  });

  it('rejects input the Realtime API cannot take with InvalidArgumentError', async () => {
    const { model } = await fixture.start();
    const both = liveRequest();
    both.liveConnectConfig = { responseModalities: ['AUDIO', 'TEXT'] };
    await expect(model.connectLive(both, {})).rejects.toSatisfy(InvalidArgumentError.isInstance);
    const connection = fixture.track(await model.connectLive(liveRequest(), {}));
    await expect(
      connection.sendRealtime({ blob: { mimeType: 'audio/webm', data: 'AAAA' } }),
    ).rejects.toSatisfy(InvalidArgumentError.isInstance);
    await expect(
      connection.sendHistory([
        { role: 'user', parts: [{ inlineData: { mimeType: 'application/zip', data: 'AA' } }] },
      ]),
    ).rejects.toSatisfy(InvalidArgumentError.isInstance);
  });
});
