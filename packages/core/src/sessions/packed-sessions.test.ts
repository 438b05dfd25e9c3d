import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { InvalidArgumentError, StaleSessionError } from '../errors';
import { createEvent, type Event, type EventInit } from '../events';
import { sessionServiceConformance } from '../testing/vitest';
import type { AppendEventRequest, GetSessionRequest } from './session-service';
import { copyEventForStorage } from './append-helpers';
import { InMemorySessionService } from './in-memory-session-service';
import { packEvents, unpackEvents } from './packed-events';

/** Packs every session before each call: every read and write meets packed events. */
class AlwaysPackedSessionService extends InMemorySessionService {
  override getSession(request: GetSessionRequest) {
    this.packSessions();
    return super.getSession(request);
  }

  override appendEvent(request: AppendEventRequest) {
    this.packSessions();
    return super.appendEvent(request);
  }
}

sessionServiceConformance('in-memory, packed before every call', () => {
  return new AlwaysPackedSessionService();
});

const key = { appName: 'packing', userId: 'u' };

function textEvent(text: string, init: Partial<EventInit> = {}): Event {
  return createEvent({
    invocationId: 'i',
    author: 'agent',
    content: { role: 'model', parts: [{ text }] },
    ...init,
  });
}

async function sessionWithEvents(service: InMemorySessionService, count: number) {
  const session = await service.createSession(key);
  for (let index = 0; index < count; index++) {
    await service.appendEvent({ session, event: textEvent(`message ${index}`) });
  }
  return session;
}

describe('packed events', () => {
  it('round-trip every value a stored event may hold, deep-frozen', () => {
    const events = [
      textEvent('naïve café, 日本語, emoji 🎉, and a NUL \u0000 byte'),
      createEvent({
        invocationId: 'i',
        author: 'tool',
        actions: {
          stateDelta: {
            when: new Date(1_700_000_000_000),
            lookup: new Map([['a', 1]]),
            missing: undefined,
            nested: { list: [1, 'two', null, { three: 3 }] },
          },
        },
      }),
    ].map(copyEventForStorage);
    const unpacked = unpackEvents(packEvents(events));
    expect(unpacked).toEqual(events);
    expect(unpacked[1]!.actions.stateDelta).toHaveProperty('missing', undefined);
    expect(unpacked[1]!.actions.stateDelta['when']).toBeInstanceOf(Date);
    expect(Object.isFrozen(unpacked[0]!.content!.parts[0])).toBe(true);
    expect(Object.isFrozen(unpacked[1]!.actions.stateDelta['nested'])).toBe(true);
  });

  it('are much smaller than the events as JSON', () => {
    const events = Array.from({ length: 4 }, (_, index) => textEvent(`answer number ${index}`));
    expect(packEvents(events).length).toBeLessThan(JSON.stringify(events).length / 2);
  });
});

describe('InMemorySessionService idle packing', () => {
  afterEach(() => vi.useRealTimers());

  it('packs a session left alone for the idle time, and hands back equal events', async () => {
    vi.useFakeTimers();
    const service = new InMemorySessionService({ packIdleSessionsAfterMs: 1_000 });
    const session = await sessionWithEvents(service, 3);
    const before = await service.getSession({ ...key, sessionId: session.id });

    await vi.advanceTimersByTimeAsync(900);
    const stillHot = await service.getSession({ ...key, sessionId: session.id });
    stillHot!.events.forEach((event, index) => expect(event).toBe(before!.events[index]));

    await vi.advanceTimersByTimeAsync(1_600);
    expect(service.packSessions()).toBe(0); // the timer packed it already
    const after = await service.getSession({ ...key, sessionId: session.id });
    expect(after!.events).toEqual(before!.events);
    expect(after!.events[0]).not.toBe(before!.events[0]);
    expect(after!.lastUpdateTime).toBe(before!.lastUpdateTime);
  });

  it('never packs a session that is used more often than the idle time', async () => {
    vi.useFakeTimers();
    const service = new InMemorySessionService({ packIdleSessionsAfterMs: 1_000 });
    const session = await sessionWithEvents(service, 2);
    const first = await service.getSession({ ...key, sessionId: session.id });
    for (let step = 0; step < 20; step++) {
      await vi.advanceTimersByTimeAsync(400);
      const read = await service.getSession({ ...key, sessionId: session.id });
      expect(read!.events[0]).toBe(first!.events[0]);
    }
  });

  it('keeps sessions as objects when packing is off', async () => {
    vi.useFakeTimers();
    const service = new InMemorySessionService({ packIdleSessionsAfterMs: false });
    const session = await sessionWithEvents(service, 2);
    const first = await service.getSession({ ...key, sessionId: session.id });
    await vi.advanceTimersByTimeAsync(60_000);
    const later = await service.getSession({ ...key, sessionId: session.id });
    expect(later!.events[0]).toBe(first!.events[0]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('packs thousands of idle sessions over several short sweeps, and stops its timer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const service = new InMemorySessionService({ packIdleSessionsAfterMs: 1_000 });
    const ids: string[] = [];
    for (let index = 0; index < 2_000; index++) ids.push((await sessionWithEvents(service, 2)).id);
    await vi.advanceTimersByTimeAsync(1_500);
    await vi.runAllTimersAsync();
    expect(vi.getTimerCount()).toBe(0);
    expect(service.packSessions()).toBe(0);
    const last = await service.getSession({ ...key, sessionId: ids.at(-1)! });
    expect(last!.events.map((event) => event.content?.parts[0]?.text)).toEqual([
      'message 0',
      'message 1',
    ]);
  });

  it('appends to a packed session: stale marker, duplicate ids and state still checked', async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession(key);
    const first = textEvent('one', { actions: { stateDelta: { count: 1 } } });
    await service.appendEvent({ session, event: first });
    const stale = structuredClone(session);
    await service.appendEvent({ session, event: textEvent('two') });

    expect(service.packSessions()).toBe(1);
    await expect(service.appendEvent({ session, event: { ...first } })).rejects.toThrow(
      InvalidArgumentError,
    );
    service.packSessions();
    await expect(service.appendEvent({ session: stale, event: textEvent('x') })).rejects.toThrow(
      StaleSessionError,
    );
    service.packSessions();
    await service.appendEvent({ session, event: textEvent('three') });
    const stored = await service.getSession({ ...key, sessionId: session.id });
    expect(stored!.events.map((event) => event.content?.parts[0]?.text)).toEqual([
      'one',
      'two',
      'three',
    ]);
    expect(stored!.state).toEqual({ count: 1 });
  });

  it('lets a dropped service and its sessions be collected while packing is pending', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const collected = new Set<string>();
    const registry = new FinalizationRegistry((what: string) => collected.add(what));
    await (async () => {
      const service = new InMemorySessionService({ packIdleSessionsAfterMs: 60_000 });
      const session = await sessionWithEvents(service, 2); // packing is now a minute away
      registry.register(service, 'service');
      registry.register(session.events[0]!, 'stored event');
    })();
    for (let attempt = 0; attempt < 50 && collected.size < 2; attempt++) {
      gc();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect([...collected].sort()).toEqual(['service', 'stored event']);
  });

  it('refuses an idle time that is not a positive number', () => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '5' as unknown as number]) {
      expect(() => new InMemorySessionService({ packIdleSessionsAfterMs: bad })).toThrow(
        InvalidArgumentError,
      );
    }
  });
});
