import { afterEach, describe, expect, it, vi } from 'vitest';

import { createEvent } from '../events';
import { sessionServiceConformance } from '../testing/vitest';
import { InMemorySessionService } from './in-memory-session-service';

sessionServiceConformance('in-memory', () => new InMemorySessionService());

describe('InMemorySessionService cost per turn', () => {
  afterEach(() => vi.restoreAllMocks());

  async function sessionWithHistory(service: InMemorySessionService, events: number) {
    const session = await service.createSession({ appName: 'cost', userId: 'u' });
    for (let index = 0; index < events; index++) {
      await service.appendEvent({
        session,
        event: createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: { index } } }),
      });
    }
    return session;
  }

  /** Copies (structuredClone) and freezes made by one append plus one get. */
  async function copiesPerTurn(history: number): Promise<{ clones: number; freezes: number }> {
    const service = new InMemorySessionService();
    const session = await sessionWithHistory(service, history);
    const clone = vi.spyOn(globalThis, 'structuredClone');
    const freeze = vi.spyOn(Object, 'freeze');
    await service.appendEvent({
      session,
      event: createEvent({
        invocationId: 'i',
        author: 'a',
        actions: { stateDelta: { last: true } },
      }),
    });
    await service.getSession({ appName: 'cost', userId: 'u', sessionId: session.id });
    const counts = { clones: clone.mock.calls.length, freezes: freeze.mock.calls.length };
    clone.mockRestore();
    freeze.mockRestore();
    return counts;
  }

  it('copies as much at turn 300 as at turn 3: the history is never re-copied', async () => {
    const early = await copiesPerTurn(3);
    const late = await copiesPerTurn(300);
    expect(early.clones).toBeGreaterThan(0);
    expect(early.freezes).toBeGreaterThan(0);
    expect(late).toEqual(early);
  });

  it('hands every reader the same frozen event objects stored at append time', async () => {
    const service = new InMemorySessionService();
    const session = await sessionWithHistory(service, 5);
    const key = { appName: 'cost', userId: 'u', sessionId: session.id };
    const first = await service.getSession(key);
    const second = await service.getSession(key);
    expect(first!.events).not.toBe(second!.events);
    first!.events.forEach((event, index) => {
      expect(event).toBe(second!.events[index]);
      expect(event).toBe(session.events[index]);
      expect(Object.isFrozen(event.actions.stateDelta)).toBe(true);
    });
    expect(first!.state).not.toBe(second!.state);
  });
});
