import { describe, expect, it } from 'vitest';

import { deltaEvent, type ConformanceContext } from './session-conformance-context';

/** Prefix routing, `temp:`, shallow merge and null values. */
export function defineStateTests(ctx: ConformanceContext): void {
  describe('state', () => {
    it("routes app: to every user, user: to the user's sessions, the rest to the session", async () => {
      const writer = await ctx.session({ userId: 'u1' });
      const sibling = await ctx.session({ userId: 'u1' });
      const stranger = await ctx.session({ userId: 'u2' });
      await ctx.service.appendEvent({
        session: writer,
        event: deltaEvent({
          'app:theme': 'dark',
          'user:lang': 'fr',
          step: 1,
          user_name: 'plain key',
        }),
      });
      expect((await ctx.reload(writer)).state).toEqual({
        'app:theme': 'dark',
        'user:lang': 'fr',
        step: 1,
        user_name: 'plain key',
      });
      expect((await ctx.reload(sibling)).state).toEqual({ 'app:theme': 'dark', 'user:lang': 'fr' });
      expect((await ctx.reload(stranger)).state).toEqual({ 'app:theme': 'dark' });
      const later = await ctx.session({ userId: 'u2' });
      expect(later.state).toEqual({ 'app:theme': 'dark' });
    });

    it('routes the initial state of createSession with the same rules and drops temp:', async () => {
      const first = await ctx.session({
        userId: 'u1',
        state: { 'app:a': 1, 'user:b': 2, c: 3, 'temp:d': 4 },
      });
      expect(first.state).toEqual({ 'app:a': 1, 'user:b': 2, c: 3 });
      expect((await ctx.reload(first)).state).toEqual({ 'app:a': 1, 'user:b': 2, c: 3 });
      expect((await ctx.session({ userId: 'u1' })).state).toEqual({ 'app:a': 1, 'user:b': 2 });
      expect((await ctx.session({ userId: 'u2' })).state).toEqual({ 'app:a': 1 });
    });

    it("shows temp: keys on the caller's session but never stores them, not even in the event", async () => {
      const session = await ctx.session();
      const event = deltaEvent({ 'temp:scratch': 'x', kept: 'y' });
      const stored = await ctx.service.appendEvent({ session, event });
      expect(session.state).toEqual({ 'temp:scratch': 'x', kept: 'y' });
      expect(stored.actions.stateDelta).toEqual({ kept: 'y' });
      expect(event.actions.stateDelta).toEqual({ 'temp:scratch': 'x', kept: 'y' });
      const got = await ctx.reload(session);
      expect(got.state).toEqual({ kept: 'y' });
      expect(got.events[0]?.actions.stateDelta).toEqual({ kept: 'y' });
      const listed = await ctx.service.listSessions({ appName: ctx.appName, userId: 'u1' });
      expect(listed.sessions[0]?.state).toEqual({ kept: 'y' });
    });

    it('keeps app: and user: prefixes in the stored event delta', async () => {
      const session = await ctx.session();
      await ctx.service.appendEvent({
        session,
        event: deltaEvent({ 'app:x': 1, 'user:y': 2, z: 3 }),
      });
      expect((await ctx.reload(session)).events[0]?.actions.stateDelta).toEqual({
        'app:x': 1,
        'user:y': 2,
        z: 3,
      });
    });

    it('merges shallowly: a nested object is replaced, other keys are kept', async () => {
      const session = await ctx.session({
        state: { profile: { name: 'Carol', tags: ['a'] }, other: 1 },
      });
      await ctx.service.appendEvent({
        session,
        event: deltaEvent({
          profile: { tier: 'gold' },
          'app:cfg': { a: 1, b: 2 },
          'user:prefs': { x: 1 },
        }),
      });
      await ctx.service.appendEvent({
        session,
        event: deltaEvent({ 'app:cfg': { c: 3 }, 'user:prefs': { y: 2 } }),
      });
      const expected = {
        profile: { tier: 'gold' },
        other: 1,
        'app:cfg': { c: 3 },
        'user:prefs': { y: 2 },
      };
      expect(session.state).toEqual(expected);
      expect((await ctx.reload(session)).state).toEqual(expected);
    });

    it('stores null as a value: the key stays, in every scope', async () => {
      const session = await ctx.session({ state: { city: 'Paris', 'app:a': 1, 'user:u': 1 } });
      await ctx.service.appendEvent({
        session,
        event: deltaEvent({ city: null, 'app:a': null, 'user:u': null }),
      });
      const state = (await ctx.reload(session)).state;
      expect(state).toEqual({ city: null, 'app:a': null, 'user:u': null });
      expect(Object.keys(state).sort()).toEqual(['app:a', 'city', 'user:u']);
    });

    it('keeps JSON value types: numbers, booleans, strings, arrays, nested objects', async () => {
      const values = {
        int: 42,
        float: 0.1,
        negative: -7.25,
        big: 9007199254740991,
        yes: true,
        no: false,
        text: 'héllo "quoted" \\ ✓',
        empty: '',
        list: [1, 'two', { three: 3 }, [4]],
        nested: { a: { b: { c: [] } }, snake_key: 1, camelKey: 2 },
      };
      const session = await ctx.session();
      await ctx.service.appendEvent({ session, event: deltaEvent(values) });
      expect((await ctx.reload(session)).state).toEqual(values);
    });
  });
}
