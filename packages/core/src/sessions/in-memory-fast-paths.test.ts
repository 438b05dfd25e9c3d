import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from '../errors';
import { createEvent } from '../events';
import { InMemorySessionService } from './in-memory-session-service';

/**
 * The in-memory store's memory savings (a lazily built event-id index, one shared empty state,
 * one shared empty `actions` object) must not change what callers observe.
 */
describe('InMemorySessionService fast paths', () => {
  const key = { appName: 'fast', userId: 'u' };

  it('refuses a duplicate event id before and after the id index is built', async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession(key);
    const first = createEvent({ invocationId: 'i', author: 'user' });
    await service.appendEvent({ session, event: first });
    await expect(service.appendEvent({ session, event: { ...first } })).rejects.toThrow(
      InvalidArgumentError,
    );
    for (let index = 0; index < 40; index++) {
      await service.appendEvent({
        session,
        event: createEvent({ invocationId: 'i', author: 'a' }),
      });
    }
    const late = createEvent({ invocationId: 'i', author: 'a' });
    await service.appendEvent({ session, event: late });
    for (const duplicate of [first, late]) {
      await expect(service.appendEvent({ session, event: { ...duplicate } })).rejects.toThrow(
        InvalidArgumentError,
      );
    }
    const stored = await service.getSession({ ...key, sessionId: session.id });
    expect(stored!.events).toHaveLength(42);
    expect(new Set(stored!.events.map((event) => event.id)).size).toBe(42);
  });

  it('gives sessions created without state their own state once written', async () => {
    const service = new InMemorySessionService();
    const a = await service.createSession(key);
    const b = await service.createSession(key);
    a.state.local = 'caller only';
    await service.appendEvent({
      session: a,
      event: createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: { n: 1 } } }),
    });
    const readA = await service.getSession({ ...key, sessionId: a.id });
    const readB = await service.getSession({ ...key, sessionId: b.id });
    expect(readA!.state).toEqual({ n: 1 });
    expect(readB!.state).toEqual({});
    readB!.state.mine = true;
    expect((await service.getSession({ ...key, sessionId: b.id }))!.state).toEqual({});
  });

  it('stores events without actions with an empty, frozen actions object and keeps real ones', async () => {
    const service = new InMemorySessionService();
    const session = await service.createSession(key);
    const plain = await service.appendEvent({
      session,
      event: createEvent({
        invocationId: 'i',
        author: 'a',
        actions: { stateDelta: { 'temp:x': 1 } },
      }),
    });
    const escalating = await service.appendEvent({
      session,
      event: createEvent({ invocationId: 'i', author: 'a', actions: { escalate: true } }),
    });
    expect(plain.actions).toEqual({
      stateDelta: {},
      artifactDelta: {},
      requestedToolConfirmations: {},
    });
    expect(Object.isFrozen(plain.actions) && Object.isFrozen(plain.actions.stateDelta)).toBe(true);
    expect(session.state['temp:x']).toBe(1);
    expect(escalating.actions.escalate).toBe(true);
    const read = await service.getSession({ ...key, sessionId: session.id });
    expect(read!.events.map((event) => event.actions.escalate)).toEqual([undefined, true]);
  });
});
