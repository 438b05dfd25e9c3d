import { describe, expect, it } from 'vitest';

import { StaleSessionError } from '../errors';
import { caught, deltaEvent, type ConformanceContext } from './session-conformance-context';

/** Try a mutation that may legitimately throw (frozen snapshots); storage must not change. */
function tryMutate(mutate: () => void): void {
  try {
    mutate();
  } catch {
    // A frozen object refusing the write is as good as a private copy.
  }
}

/** The stale rule and isolation of everything passed in and handed out. */
export function defineIsolationTests(ctx: ConformanceContext): void {
  describe('stale sessions', () => {
    it('refuses a stale session object with StaleSessionError and writes nothing', async () => {
      const created = await ctx.session({ state: { n: 0 } });
      const first = await ctx.reload(created);
      const second = await ctx.reload(created);
      await ctx.service.appendEvent({
        session: first,
        event: deltaEvent({ n: 1, 'app:a': 1, 'user:u': 1 }),
      });
      const secondBefore = structuredClone(second);
      const error = await caught(() =>
        ctx.service.appendEvent({
          session: second,
          event: deltaEvent({ n: 2, 'app:a': 2, 'user:u': 2, extra: true }),
        }),
      );
      expect(StaleSessionError.isInstance(error)).toBe(true);
      expect(second).toEqual(secondBefore);
      const stored = await ctx.reload(created);
      expect(stored.events).toHaveLength(1);
      expect(stored.state).toEqual({ n: 1, 'app:a': 1, 'user:u': 1 });
      // After a reload the same writer succeeds.
      await ctx.service.appendEvent({ session: stored, event: deltaEvent({ n: 2 }) });
      expect((await ctx.reload(created)).state.n).toBe(2);
    });

    it('also refuses the object returned by createSession once someone else appended', async () => {
      const created = await ctx.session();
      const other = await ctx.reload(created);
      await ctx.service.appendEvent({ session: other, event: deltaEvent({ x: 1 }) });
      const error = await caught(() =>
        ctx.service.appendEvent({ session: created, event: deltaEvent({ y: 1 }) }),
      );
      expect(StaleSessionError.isInstance(error)).toBe(true);
    });

    it('never fails a single writer, even for many appends within one millisecond', async () => {
      const session = await ctx.session();
      const timestamp = Date.now();
      for (let index = 0; index < 40; index++) {
        await ctx.service.appendEvent({
          session,
          event: deltaEvent({ count: index }, { timestamp }),
        });
      }
      const got = await ctx.reload(session);
      expect(got.events).toHaveLength(40);
      expect(got.state.count).toBe(39);
      expect(got.lastUpdateTime).toBe(session.lastUpdateTime);
    });

    it('applies concurrent appends through one Session object in call order, none of them stale', async () => {
      const session = await ctx.session();
      const events = Array.from({ length: 8 }, (_, index) =>
        deltaEvent({ [`k${index}`]: index, last: index }),
      );
      await Promise.all(events.map((event) => ctx.service.appendEvent({ session, event })));
      const got = await ctx.reload(session);
      expect(got.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(got.state.last).toBe(7);
      expect(session.events.map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect(got.lastUpdateTime).toBe(session.lastUpdateTime);
    });

    it('accepts a session object from listSessions', async () => {
      const created = await ctx.session();
      await ctx.service.appendEvent({ session: created, event: deltaEvent({ a: 1 }) });
      const [listed] = (await ctx.service.listSessions({ appName: ctx.appName, userId: 'u1' }))
        .sessions;
      await ctx.service.appendEvent({ session: listed!, event: deltaEvent({ b: 2 }) });
      expect((await ctx.reload(created)).state).toEqual({ a: 1, b: 2 });
    });
  });

  describe('isolation', () => {
    it('is not changed through objects it returned', async () => {
      const created = await ctx.session({
        state: { nested: { list: [1] }, 'app:cfg': { on: true } },
      });
      await ctx.service.appendEvent({
        session: created,
        event: deltaEvent({ nested: { list: [1, 2] } }),
      });
      const got = await ctx.reload(created);
      const expected = structuredClone(got);
      tryMutate(() => {
        got.state.added = 1;
        (got.state.nested as { list: number[] }).list.push(99);
        (got.state['app:cfg'] as { on: boolean }).on = false;
      });
      tryMutate(() => got.events.push(deltaEvent({})));
      tryMutate(() => {
        got.events[0]!.author = 'mallory';
      });
      tryMutate(() => {
        got.events[0]!.actions.stateDelta.injected = true;
      });
      tryMutate(() => {
        (created.state.nested as { list: number[] }).list.push(7);
      });
      const [listed] = (await ctx.service.listSessions({ appName: ctx.appName })).sessions;
      tryMutate(() => {
        (listed!.state['app:cfg'] as { on: boolean }).on = false;
      });
      expect(await ctx.reload(created)).toEqual(expected);
    });

    it('hands out events that refuse modification, from reads and from appendEvent', async () => {
      const session = await ctx.session();
      const returned = await ctx.service.appendEvent({
        session,
        event: deltaEvent({ a: { b: 1 } }),
      });
      const got = await ctx.reload(session);
      for (const event of [returned, got.events[0]!, session.events[0]!]) {
        expect(() => {
          event.author = 'mallory';
        }).toThrow(TypeError);
        expect(() => {
          (event.actions.stateDelta.a as { b: number }).b = 2;
        }).toThrow(TypeError);
      }
      // The caller's own arrays and state stay writable.
      got.events.push(returned);
      got.state.added = true;
      expect((await ctx.reload(session)).events).toHaveLength(1);
    });

    it('is not changed through objects it was given', async () => {
      const initial = { profile: { name: 'Ann' } };
      const session = await ctx.session({ state: initial });
      initial.profile.name = 'changed after create';
      const value = { items: ['a'] };
      const event = deltaEvent({ cart: value, 'user:prefs': { dark: true } });
      const returned = await ctx.service.appendEvent({ session, event });
      value.items.push('changed after append');
      event.author = 'changed';
      (event.actions.stateDelta['user:prefs'] as { dark: boolean }).dark = false;
      tryMutate(() => {
        returned.actions.stateDelta.injected = true;
      });
      tryMutate(() => {
        (session.state.cart as { items: string[] }).items.push('via session');
      });
      const got = await ctx.reload(session);
      expect(got.state).toEqual({
        profile: { name: 'Ann' },
        cart: { items: ['a'] },
        'user:prefs': { dark: true },
      });
      expect(got.events[0]?.author).toBe('agent');
      expect(got.events[0]?.actions.stateDelta).toEqual({
        cart: { items: ['a'] },
        'user:prefs': { dark: true },
      });
    });
  });
}
