import { describe, expect, it } from 'vitest';

import { InvalidArgumentError } from '../errors';
import { createEvent, type Event } from '../events';
import { eventWithEveryField } from './event-with-every-field';
import { caught, deltaEvent, type ConformanceContext } from './session-conformance-context';

/** Windows, ordering, round-trip, refusals and in-place updates. */
export function defineEventTests(ctx: ConformanceContext): void {
  describe('events', () => {
    it('round-trips every Event field without loss', async () => {
      const session = await ctx.session();
      const event = eventWithEveryField(Date.now());
      const stored = await ctx.service.appendEvent({ session, event });
      expect(stored).toEqual(event);
      const got = await ctx.reload(session);
      expect(got.events).toEqual([event]);
      expect(JSON.parse(JSON.stringify(got.events[0]))).toEqual(JSON.parse(JSON.stringify(event)));
    });

    it('round-trips a minimal event and fills empty actions', async () => {
      const session = await ctx.session();
      const minimal = {
        id: 'min-1',
        invocationId: 'i',
        author: 'user',
        timestamp: 1_700_000_000_123,
      } as Event;
      const stored = await ctx.service.appendEvent({ session, event: minimal });
      expect(stored).toMatchObject({
        id: 'min-1',
        invocationId: 'i',
        author: 'user',
        timestamp: 1_700_000_000_123,
      });
      expect(stored.actions).toMatchObject({
        stateDelta: {},
        artifactDelta: {},
        requestedToolConfirmations: {},
      });
      expect((await ctx.reload(session)).events[0]).toEqual(stored);
    });

    it("updates the caller's session in place and returns the stored event", async () => {
      const session = await ctx.session();
      const before = session.lastUpdateTime;
      const event = deltaEvent({ a: 1 });
      const stored = await ctx.service.appendEvent({ session, event });
      expect(stored).toEqual(event);
      expect(session.events).toEqual([event]);
      expect(session.state).toEqual({ a: 1 });
      expect(session.lastUpdateTime).toBeGreaterThan(before);
      expect((await ctx.reload(session)).lastUpdateTime).toBe(session.lastUpdateTime);
    });

    it('returns events in append order, whatever their timestamps', async () => {
      const session = await ctx.session();
      const ids: string[] = [];
      const stamps = [5000, 5000, 5000, 4000, 6000, 6000];
      for (const [index, timestamp] of stamps.entries()) {
        const event = createEvent({ id: `e${index}`, invocationId: 'i', author: 'a', timestamp });
        ids.push(event.id);
        await ctx.service.appendEvent({ session, event });
      }
      // The log order is the append order: timestamps are data, not the order.
      expect((await ctx.reload(session)).events.map((e) => e.id)).toEqual(ids);
      expect((await ctx.reload(session, { numRecentEvents: 3 })).events.map((e) => e.id)).toEqual([
        'e3',
        'e4',
        'e5',
      ]);
      expect((await ctx.reload(session, { afterTimestamp: 5000 })).events.map((e) => e.id)).toEqual(
        ['e0', 'e1', 'e2', 'e4', 'e5'],
      );
      expect(session.events.map((e) => e.id)).toEqual(ids);
    });

    it('windows with numRecentEvents and an inclusive afterTimestamp', async () => {
      const session = await ctx.session();
      for (let index = 0; index < 6; index++) {
        const event = createEvent({
          id: `w${index}`,
          invocationId: 'i',
          author: 'a',
          timestamp: 1000 + index * 10,
        });
        await ctx.service.appendEvent({ session, event });
      }
      const ids = async (window: { numRecentEvents?: number; afterTimestamp?: number }) =>
        (await ctx.reload(session, window)).events.map((e) => e.id);
      expect(await ids({})).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5']);
      expect(await ids({ numRecentEvents: 2 })).toEqual(['w4', 'w5']);
      expect(await ids({ numRecentEvents: 0 })).toEqual([]);
      expect(await ids({ numRecentEvents: 50 })).toHaveLength(6);
      expect(await ids({ afterTimestamp: 1030 })).toEqual(['w3', 'w4', 'w5']);
      expect(await ids({ afterTimestamp: 1031 })).toEqual(['w4', 'w5']);
      expect(await ids({ afterTimestamp: 1010, numRecentEvents: 2 })).toEqual(['w4', 'w5']);
      expect(await ids({ afterTimestamp: 1040, numRecentEvents: 5 })).toEqual(['w4', 'w5']);
      expect(await ids({ afterTimestamp: 9999 })).toEqual([]);
      const windowed = await ctx.reload(session, { numRecentEvents: 1 });
      expect(windowed.state).toEqual({});
      await expect(
        ctx.service.appendEvent({ session: windowed, event: deltaEvent({ ok: 1 }) }),
      ).resolves.toBeDefined();
    });

    it('refuses a partial event with InvalidArgumentError and stores nothing', async () => {
      const session = await ctx.session();
      const snapshot = structuredClone(session);
      const error = await caught(() =>
        ctx.service.appendEvent({
          session,
          event: deltaEvent({ leaked: true }, { partial: true }),
        }),
      );
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect(session).toEqual(snapshot);
      expect(await ctx.reload(session)).toEqual(snapshot);
    });

    it('refuses an event id already stored in the session and overwrites nothing', async () => {
      const session = await ctx.session();
      await ctx.service.appendEvent({ session, event: deltaEvent({ v: 1 }, { id: 'same-event' }) });
      const error = await caught(() =>
        ctx.service.appendEvent({ session, event: deltaEvent({ v: 2 }, { id: 'same-event' }) }),
      );
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      const got = await ctx.reload(session);
      expect(got.events).toHaveLength(1);
      expect(got.state).toEqual({ v: 1 });
    });
  });
}
