import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { APP, collect, SESSION, USER } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent, type Content } from '../content';
import { StaleSessionError } from '../errors/stale-session-error';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { LiveRequestQueue } from '../live/live-request-queue';
import { FakeLiveModel } from '../testing/fake-live-model';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';
import { Runner } from './runner';
import type { SessionLock, SessionLockKey } from './session-lock';

/** A lock shared by Runners standing for separate processes: one holder per key, FIFO. */
class SharedLock implements SessionLock {
  readonly log: string[] = [];
  readonly #tails = new Map<string, Promise<void>>();

  async acquire(key: SessionLockKey, signal?: AbortSignal) {
    const name = `${key.appName}/${key.userId}/${key.sessionId}`;
    const previous = this.#tails.get(name) ?? Promise.resolve();
    let free!: () => void;
    const mine = new Promise<void>((resolve) => (free = resolve));
    this.#tails.set(
      name,
      previous.then(() => mine),
    );
    const aborted = new Promise<'aborted'>((resolve) =>
      signal?.addEventListener('abort', () => resolve('aborted'), { once: true }),
    );
    if ((await Promise.race([previous.then(() => 'held' as const), aborted])) === 'aborted') {
      // Give the place up once the previous holder is done.
      void previous.then(free);
      this.log.push(`gave up ${name}`);
      return undefined;
    }
    this.log.push(`acquired ${name}`);
    return async () => {
      this.log.push(`released ${name}`);
      free();
    };
  }
}

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Two Runners ("instances") on one session store, both answering through a tool held by a gate. */
function twoInstances(sessionLock: SessionLock | undefined) {
  const held = gate();
  const entered: string[] = [];
  const hold = new FunctionTool({
    name: 'hold',
    description: 'Waits until released.',
    parameters: z.object({ name: z.string() }),
    execute: async ({ name }) => {
      entered.push(name);
      if (name === 'first') await held.opened;
      return { released: name };
    },
  });
  const model = new FakeModel({
    responses: (request) => {
      const last = request.contents.at(-1) as Content;
      const response = last.parts.find((part) => part.functionResponse)?.functionResponse;
      if (response) return `done ${(response.response as { released: string }).released}`;
      const text = last.parts.map((part) => part.text ?? '').join('');
      return { functionCalls: [{ name: 'hold', args: { name: text } }] };
    },
  });
  const sessionService = new InMemorySessionService();
  const runner = () =>
    new Runner({
      appName: APP,
      agent: new LlmAgent({ name: 'agent', model, tools: [hold] }),
      sessionService,
      autoCreateSession: true,
      ...(sessionLock ? { sessionLock } : {}),
    });
  return { held, entered, sessionService, a: runner(), b: runner() };
}

const run = (runner: Runner, text: string, signal?: AbortSignal) =>
  collect(runner.run({ userId: USER, sessionId: SESSION, newMessage: userContent(text), signal }));

async function settle(): Promise<void> {
  for (let index = 0; index < 20; index++) await new Promise((resolve) => setImmediate(resolve));
}

describe('Runner with a sessionLock', () => {
  it('without one, turns on two Runners interleave and the first fails with StaleSessionError', async () => {
    const { held, entered, a, b } = twoInstances(undefined);
    const first = run(a, 'first');
    await expect.poll(() => entered).toEqual(['first']);
    await run(b, 'second');
    held.open();
    await expect(first).rejects.toBeInstanceOf(StaleSessionError);
  });

  it('serializes turns on one session across Runners: both stored, in order', async () => {
    const lock = new SharedLock();
    const { held, entered, sessionService, a, b } = twoInstances(lock);
    const first = run(a, 'first');
    await expect.poll(() => entered).toEqual(['first']);
    const second = run(b, 'second');
    await settle();
    expect(entered).toEqual(['first']);
    held.open();
    await first;
    await second;
    const session = await sessionService.getSession({
      appName: APP,
      userId: USER,
      sessionId: SESSION,
    });
    expect(
      session?.events.filter((e) => e.author === 'user').map((e) => getText(e.content)),
    ).toEqual(['first', 'second']);
    expect(session?.events.at(-1)?.content?.parts[0]?.text).toBe('done second');
    const name = `${APP}/${USER}/${SESSION}`;
    expect(lock.log).toEqual([
      `acquired ${name}`,
      `released ${name}`,
      `acquired ${name}`,
      `released ${name}`,
    ]);
  });

  it('a run aborted while waiting for the lock ends with no event and stores nothing', async () => {
    const lock = new SharedLock();
    const { held, entered, sessionService, a, b } = twoInstances(lock);
    const first = run(a, 'first');
    await expect.poll(() => entered).toEqual(['first']);
    const controller = new AbortController();
    const second = run(b, 'second', controller.signal);
    await settle();
    controller.abort();
    expect(await second).toEqual([]);
    held.open();
    await first;
    // The Runner's own turn was given back: the next run on b goes through.
    await run(b, 'third');
    const session = await sessionService.getSession({
      appName: APP,
      userId: USER,
      sessionId: SESSION,
    });
    expect(
      session?.events.filter((e) => e.author === 'user').map((e) => getText(e.content)),
    ).toEqual(['first', 'third']);
  });

  it('releases the lock when the run fails, and a failing acquire fails the run without holding the turn', async () => {
    let calls = 0;
    const failing: SessionLock = {
      acquire: async () => {
        calls++;
        if (calls === 1) throw new TypeError('database unreachable');
        return async () => undefined;
      },
    };
    const { held, a } = twoInstances(failing);
    held.open();
    await expect(run(a, 'second')).rejects.toThrow('database unreachable');
    expect(await run(a, 'second')).not.toEqual([]);
  });

  it('holds the lock for a whole live run: a text turn on another Runner waits for it to end', async () => {
    const lock = new SharedLock();
    const model = new FakeLiveModel({ turnBased: new FakeModel({ responses: ['typed answer'] }) });
    const sessionService = new InMemorySessionService();
    const runner = () =>
      new Runner({
        appName: APP,
        agent: new LlmAgent({ name: 'voice', model }),
        sessionService,
        autoCreateSession: true,
        sessionLock: lock,
      });
    const [a, b] = [runner(), runner()];
    await a.sessionService.createSession({ appName: APP, userId: USER, sessionId: SESSION });
    const queue = new LiveRequestQueue();
    const live = collect(a.runLive({ userId: USER, sessionId: SESSION, liveRequests: queue }));
    await expect.poll(() => model.connections.length).toBe(1);
    let typedDone = false;
    const typed = run(b, 'typed').then((events) => {
      typedDone = true;
      return events;
    });
    await settle();
    const name = `${APP}/${USER}/${SESSION}`;
    expect(typedDone).toBe(false);
    expect(lock.log).toEqual([`acquired ${name}`]);
    queue.close();
    await live;
    expect(getText((await typed).at(-1)?.content)).toBe('typed answer');
    expect(lock.log).toEqual([
      `acquired ${name}`,
      `released ${name}`,
      `acquired ${name}`,
      `released ${name}`,
    ]);
    expect(model.openConnections).toEqual([]);
  });
});
