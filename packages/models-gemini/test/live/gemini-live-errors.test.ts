import { InvalidArgumentError, type LiveConnection } from '@adk/core';
import { startFakeGeminiLive, type FakeGeminiLiveServer } from '@adk/fake-provider-servers';
import { afterEach, describe, expect, it } from 'vitest';

import {
  createGemini,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
  ModelTimeoutError,
} from '../../src';
import { activeTimers, liveRequest, MIC_CHUNK, readInBackground } from './live-test-helpers';

let server: FakeGeminiLiveServer | undefined;
const connections: LiveConnection[] = [];
afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.close()));
  await server?.close();
  server = undefined;
});

const modelOf = (baseURL: string, settings: Parameters<typeof createGemini>[0] = {}) =>
  createGemini({ apiKey: 'test-key', baseURL, ...settings })('gemini-live-2.5-flash-preview');

async function open(
  fake: FakeGeminiLiveServer,
  live = liveRequest({ responseModalities: ['TEXT'] }),
) {
  const connection = await modelOf(fake.baseURL).connectLive!(live, {});
  connections.push(connection);
  return connection;
}

/**
 * Checks the fake has no open socket and no timer of ours is left: at once when the connection is
 * given (its `close()` resolves when the socket closed, after the timers are cleared), else once
 * the rejected connection attempt has wound down.
 */
async function expectNothingLeftOpen(
  fake: FakeGeminiLiveServer,
  timersBefore: number,
  connection?: LiveConnection,
) {
  if (connection) await connection.close();
  await expect.poll(() => fake.openConnections).toBe(0);
  expect(fake.connections.every((c) => !c.open)).toBe(true);
  if (connection) expect(activeTimers()).toBeLessThanOrEqual(timersBefore);
  else await expect.poll(() => activeTimers()).toBeLessThanOrEqual(timersBefore);
}

describe('Gemini Live failures are typed and leave nothing open', () => {
  it('a malformed frame: the responses before it, then ModelStreamError(malformed) with the chunk', async () => {
    server = await startFakeGeminiLive({
      script: [{ text: 'Hello there', faults: { malformed: true } }],
    });
    const timers = activeTimers();
    const live = await open(server);
    const reader = readInBackground(live);
    await live.sendContent({ role: 'user', parts: [{ text: 'hi' }] });
    const error = await reader.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'malformed', retryable: false, provider: 'gemini' });
    expect((error as ModelStreamError).chunk).toContain('{"serverContent"');
    expect(reader.responses.filter((r) => r.partial).length).toBeGreaterThan(0);
    await expectNothingLeftOpen(server, timers, live);
    expect(server.connections[0]!.closeCode).toBe(1007);
  });

  it('a server close with an error code mid-session: ModelStreamError with the code and reason', async () => {
    server = await startFakeGeminiLive({
      script: [
        {
          audioChunks: 2,
          faults: { close: { code: 1011, reason: 'Internal error encountered.' } },
        },
      ],
    });
    const timers = activeTimers();
    const live = await open(server, liveRequest({}));
    const reader = readInBackground(live);
    for (let i = 0; i < 3; i++) await live.sendRealtime({ blob: MIC_CHUNK });
    const error = await reader.done.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: 'ModelStreamError',
      kind: 'provider-error',
      providerErrorType: 'websocket-close-1011',
      retryable: true,
    });
    expect((error as Error).message).toContain('Internal error encountered.');
    expect(reader.responses.filter((r) => r.content?.parts[0]?.inlineData)).toHaveLength(2);
    await expect(live.sendRealtime({ blob: MIC_CHUNK })).rejects.toBe(error);
    await expectNothingLeftOpen(server, timers, live);
  });

  it('setup refused with 1008 (a bad key): connectLive rejects with the reason, not retryable', async () => {
    server = await startFakeGeminiLive({
      rejectSetup: { code: 1008, reason: 'API key not valid. Please pass a valid API key.' },
    });
    const timers = activeTimers();
    const error = await modelOf(server.baseURL).connectLive!(liveRequest({}), {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      name: 'ModelStreamError',
      kind: 'provider-error',
      providerErrorType: 'websocket-close-1008',
      retryable: false,
    });
    expect((error as Error).message).toContain('API key not valid');
    await expectNothingLeftOpen(server, timers);
  });

  it('no setupComplete in time: ModelTimeoutError, socket closed, timer cleared', async () => {
    server = await startFakeGeminiLive({ holdSetup: true });
    const timers = activeTimers();
    const model = modelOf(server.baseURL, { live: { setupTimeoutMs: 300 } });
    const error = await model.connectLive!(liveRequest({}), {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ModelTimeoutError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ timeoutMs: 300, phase: 'response', retryable: true });
    expect(server.connections[0]!.setup).toBeDefined(); // setup was sent, never answered
    await expectNothingLeftOpen(server, timers);
  });

  it('nothing listening: ModelConnectionError naming the URL without its query', async () => {
    const gone = await startFakeGeminiLive();
    const baseURL = gone.baseURL;
    await gone.close();
    const timers = activeTimers();
    const error = await modelOf(baseURL, { query: { alt: 'x' } }).connectLive!(
      liveRequest({}),
      {},
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ModelConnectionError.isInstance(error)).toBe(true);
    expect((error as ModelConnectionError).url).toMatch(
      /^ws:\/\/127\.0\.0\.1:\d+\/ws\/google\.ai\.generativelanguage\.v1beta\.GenerativeService\.BidiGenerateContent$/,
    );
    await expect.poll(() => activeTimers()).toBeLessThanOrEqual(timers);
  });

  it('an upgrade refused with an HTTP status: ModelApiError with the status', async () => {
    server = await startFakeGeminiLive();
    const timers = activeTimers();
    const error = await modelOf(`${server.url}/not-here/v1beta`).connectLive!(
      liveRequest({}),
      {},
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 404, retryable: false, providerMessage: 'Not Found' });
    expect(server.connections).toHaveLength(0);
    await expect.poll(() => activeTimers()).toBeLessThanOrEqual(timers);
  });

  it('abort during setup rejects with the reason; abort later closes the connection cleanly', async () => {
    server = await startFakeGeminiLive({ holdSetup: true });
    const timers = activeTimers();
    const controller = new AbortController();
    const pending = modelOf(server.baseURL).connectLive!(liveRequest({}), {
      signal: controller.signal,
    });
    await expect.poll(() => server!.connections[0]?.setup).toBeDefined();
    const reason = new Error('user hung up');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expectNothingLeftOpen(server, timers);

    const already = AbortSignal.abort(reason);
    await expect(
      modelOf(server.baseURL).connectLive!(liveRequest({}), { signal: already }),
    ).rejects.toBe(reason);

    await server.close();
    server = await startFakeGeminiLive();
    const later = new AbortController();
    const live = await modelOf(server.baseURL).connectLive!(liveRequest({}), {
      signal: later.signal,
    });
    const reader = readInBackground(live);
    later.abort(reason);
    await expect(reader.done).resolves.toBeUndefined();
    await expectNothingLeftOpen(server, timers, live);
  });

  it('close() is idempotent: receive ends, later sends are refused with a typed error', async () => {
    server = await startFakeGeminiLive({ script: [{ audioChunks: 50 }] });
    const timers = activeTimers();
    const live = await open(server, liveRequest({}));
    const reader = readInBackground(live);
    for (let i = 0; i < 3; i++) await live.sendRealtime({ blob: MIC_CHUNK });
    await reader.until((r) => r.content?.parts[0]?.inlineData !== undefined);
    await Promise.all([live.close(), live.close()]);
    await live.close();
    await expect(reader.done).resolves.toBeUndefined();
    const refused = await live
      .sendContent({ role: 'user', parts: [{ text: 'x' }] })
      .catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'ModelStreamError', kind: 'interrupted' });
    await expectNothingLeftOpen(server, timers, live);
    expect(server.connections[0]!.closeCode).toBe(1000);
  });

  it('bad input is refused before it is sent: a non-media blob, transparent resumption on the Gemini API, a second reader', async () => {
    server = await startFakeGeminiLive();
    const live = await open(server);
    await expect(
      live.sendRealtime({ blob: { mimeType: 'application/pdf', data: 'AAAA' } }),
    ).rejects.toSatisfy((e) => InvalidArgumentError.isInstance(e));
    readInBackground(live);
    const second = live.receive()[Symbol.asyncIterator]().next();
    await expect(second).rejects.toSatisfy((e) => InvalidArgumentError.isInstance(e));
    await expect(
      modelOf(server.baseURL).connectLive!(
        liveRequest({ sessionResumption: { transparent: true } }),
        {},
      ),
    ).rejects.toSatisfy((e) => InvalidArgumentError.isInstance(e));
    expect(server.connections).toHaveLength(1);
  });
});
