import { describe, expect, it } from 'vitest';

import { LlmAgent } from '../agents/llm-agent';
import type { Event } from '../events';
import type { LiveConnection, LlmResponse, Model } from '../models';
import type { BasePlugin } from '../plugins/base-plugin';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { LiveRequestQueue } from './live-request-queue';
import { LiveResponseBuffer } from './live-response-buffer';
import { takeLiveEvents } from './run-live';

const APP = 'live_app';
const USER = 'u1';
const SESSION = 's1';

/** A connection as the provider packages write them: socket handlers push into a buffer. */
class BufferedConnection implements LiveConnection {
  readonly responses = new LiveResponseBuffer<LlmResponse>();
  closed = false;
  async sendHistory(): Promise<void> {}
  async sendContent(): Promise<void> {}
  async sendRealtime(): Promise<void> {}
  receive(): AsyncIterable<LlmResponse> {
    return this.responses;
  }
  async close(): Promise<void> {
    this.closed = true;
    this.responses.end();
  }
}

class BufferedLiveModel implements Model {
  readonly name = 'buffered-live';
  readonly connections: BufferedConnection[] = [];
  #opened: ((connection: BufferedConnection) => void) | undefined;
  readonly opened = new Promise<BufferedConnection>((resolve) => {
    this.#opened = resolve;
  });
  // eslint-disable-next-line require-yield -- a live-only model
  async *generate(): AsyncGenerator<LlmResponse> {
    throw new Error('live only');
  }
  async connectLive(): Promise<LiveConnection> {
    const connection = new BufferedConnection();
    this.connections.push(connection);
    this.#opened?.(connection);
    return connection;
  }
}

const audio = (n: number): LlmResponse => ({
  partial: true,
  content: { role: 'model', parts: [{ inlineData: { mimeType: 'audio/pcm', data: `AAA${n}` } }] },
});

/** Yields to the event loop until `check` holds (the run's tasks progress meanwhile). */
async function until(check: () => boolean): Promise<void> {
  for (let turn = 0; !check(); turn++) {
    if (turn === 10_000) throw new Error('never happened');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

async function start(plugins: BasePlugin[] = []) {
  const model = new BufferedLiveModel();
  const sessionService = new InMemorySessionService();
  await sessionService.createSession({ appName: APP, userId: USER, sessionId: SESSION });
  const runner = new Runner({
    appName: APP,
    agent: new LlmAgent({ name: 'voice', model }),
    sessionService,
    plugins,
  });
  const queue = new LiveRequestQueue();
  const events = runner.runLive({ userId: USER, sessionId: SESSION, liveRequests: queue });
  return { model, queue, events, sessionService };
}

const dataOf = (event: Event) => event.content?.parts[0]?.inlineData?.data;

describe('takeLiveEvents (the /run_live route taking audio chunks as they are made)', () => {
  it('gets each audio chunk synchronously within the provider push, the rest in order through the generator', async () => {
    const { model, queue, events, sessionService } = await start();
    const seen: string[] = [];
    expect(
      takeLiveEvents(events, (event) => {
        seen.push(`taken ${dataOf(event)}`);
        return true;
      }),
    ).toBe(true);
    const reading = (async () => {
      for await (const event of events) {
        const boundary = event.turnComplete ? 'turnComplete' : event.interrupted && 'interrupted';
        seen.push(`yielded ${boundary || dataOf(event)}`);
      }
    })();
    const connection = await model.opened;
    // A turn's first chunk ends the user's utterance: mapped the general way (a few awaits),
    // then taken all the same, as a partial event.
    connection.responses.push(audio(0));
    await until(() => seen.length === 1);
    connection.responses.push(audio(1));
    // Handed over before push returned: no promise between the provider and the taker.
    expect(seen.at(-1)).toBe('taken AAA1');
    connection.responses.push({ interrupted: true });
    await until(() => seen.length === 3);
    connection.responses.push(audio(2));
    await until(() => seen.length === 4);
    connection.responses.push(audio(3));
    expect(seen.at(-1)).toBe('taken AAA3');
    connection.responses.push({ turnComplete: true });
    await until(() => seen.length === 6);
    queue.close();
    await reading;
    expect(seen).toEqual([
      'taken AAA0',
      'taken AAA1',
      'yielded interrupted',
      'taken AAA2',
      'taken AAA3',
      'yielded turnComplete',
    ]);
    const session = await sessionService.getSession({
      appName: APP,
      userId: USER,
      sessionId: SESSION,
    });
    // Only the boundaries are stored (an audio chunk is partial).
    expect(
      session!.events.map((event) => Boolean(event.interrupted || event.turnComplete)),
    ).toEqual([true, true]);
    expect(connection.closed).toBe(true);
  });

  it('gives every partial event its own id of the usual form, also across runs', async () => {
    const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const ids: string[] = [];
    for (let run = 0; run < 2; run++) {
      const { model, queue, events, sessionService } = await start();
      takeLiveEvents(events, (event) => {
        ids.push(event.id);
        return true;
      });
      const reading = (async () => {
        for await (const event of events) ids.push(event.id);
      })();
      const connection = await model.opened;
      // 300 chunks: more than the 256 ids between steps of the ids' upper digits.
      for (let n = 0; n < 300; n++) connection.responses.push(audio(n));
      connection.responses.push({ turnComplete: true });
      await until(() => ids.length === (run + 1) * 301);
      queue.close();
      await reading;
      const session = await sessionService.getSession({
        appName: APP,
        userId: USER,
        sessionId: SESSION,
      });
      expect(session!.events.map((event) => event.id)).toEqual([ids.at(-1)]);
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });

  it('yields the chunks the taker declines, in order', async () => {
    const { model, queue, events } = await start();
    const taken: string[] = [];
    takeLiveEvents(events, (event) => {
      const data = dataOf(event)!;
      if (data === 'AAA2') return false;
      taken.push(data);
      return true;
    });
    const yielded: string[] = [];
    const reading = (async () => {
      for await (const event of events) yielded.push(dataOf(event)!);
    })();
    const connection = await model.opened;
    for (let n = 0; n <= 3; n++) {
      connection.responses.push(audio(n));
      await until(() => taken.length + yielded.length === n + 1);
    }
    queue.close();
    await reading;
    expect(yielded).toEqual(['AAA2']);
    expect(taken).toEqual(['AAA0', 'AAA1', 'AAA3']);
  });

  it('takes nothing while a plugin has an onEvent hook: every event goes through the hook', async () => {
    const hooked: string[] = [];
    const plugin: BasePlugin = {
      name: 'watcher',
      onEvent: ({ event }) => {
        hooked.push(dataOf(event) ?? '');
        return undefined;
      },
    } as BasePlugin;
    const { model, queue, events } = await start([plugin]);
    let taken = 0;
    takeLiveEvents(events, () => {
      taken++;
      return true;
    });
    const yielded: string[] = [];
    const reading = (async () => {
      for await (const event of events) yielded.push(dataOf(event)!);
    })();
    const connection = await model.opened;
    for (let n = 0; n < 3; n++) connection.responses.push(audio(n));
    await until(() => yielded.length === 3);
    queue.close();
    await reading;
    expect(taken).toBe(0);
    expect(yielded).toEqual(['AAA0', 'AAA1', 'AAA2']);
    expect(hooked).toEqual(['AAA0', 'AAA1', 'AAA2']);
  });

  it('keeps every chunk, in order, when the reader falls behind (the channel fills, the buffer holds the rest)', async () => {
    const { model, queue, events } = await start();
    const iterator = events[Symbol.asyncIterator]();
    const first = iterator.next();
    const connection = await model.opened;
    connection.responses.push(audio(0));
    const yielded: string[] = [dataOf((await first).value as Event)!];
    // Nobody reads now: each chunk is handed to the waiting receiver, up to the channel's 64,
    // then the receiver waits for room and the buffer holds the rest.
    const total = 300;
    let buffered = 0;
    for (let n = 1; n < total; n++) {
      connection.responses.push(audio(n));
      await new Promise((resolve) => setImmediate(resolve));
      buffered = Math.max(buffered, connection.responses.size);
    }
    expect(buffered).toBeGreaterThan(total - 70);
    while (yielded.length < total) yielded.push(dataOf((await iterator.next()).value as Event)!);
    expect(yielded).toEqual(Array.from({ length: total }, (_, n) => `AAA${n}`));
    queue.close();
    expect((await iterator.next()).done).toBe(true);
  });

  it('is refused (false) for a generator that is not a live run', async () => {
    async function* other(): AsyncGenerator<Event, void> {}
    expect(takeLiveEvents(other(), () => true)).toBe(false);
  });
});
