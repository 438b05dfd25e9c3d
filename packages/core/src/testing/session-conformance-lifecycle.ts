import { describe, expect, it } from 'vitest';

import { InvalidArgumentError, SessionExistsError, SessionNotFoundError } from '../errors';
import { createEvent } from '../events';
import { caught, deltaEvent, type ConformanceContext } from './session-conformance-context';

/** create / get / list / delete and ids. */
export function defineLifecycleTests(ctx: ConformanceContext): void {
  describe('create, get, list, delete', () => {
    it('creates a session with a generated id, no events and a numeric lastUpdateTime', async () => {
      const a = await ctx.session();
      const b = await ctx.session();
      expect(typeof a.id).toBe('string');
      expect(a.id).not.toBe('');
      expect(a.id).not.toBe(b.id);
      expect(a).toMatchObject({ appName: ctx.appName, userId: 'u1', state: {}, events: [] });
      expect(Number.isFinite(a.lastUpdateTime)).toBe(true);
    });

    it('uses a given id and gets the session back', async () => {
      const created = await ctx.session({ sessionId: 'given-id', state: { step: 1 } });
      expect(created.id).toBe('given-id');
      const got = await ctx.reload(created);
      expect(got).toEqual(created);
    });

    it('refuses a duplicate id with SessionExistsError and overwrites nothing', async () => {
      const first = await ctx.session({ sessionId: 'dup', state: { owner: 'first' } });
      await ctx.service.appendEvent({ session: first, event: deltaEvent({ n: 1 }) });
      const error = await caught(() =>
        ctx.session({ sessionId: 'dup', state: { owner: 'second' } }),
      );
      expect(SessionExistsError.isInstance(error)).toBe(true);
      const got = await ctx.reload(first);
      expect(got.state).toEqual({ owner: 'first', n: 1 });
      expect(got.events).toHaveLength(1);
    });

    it('keeps sessions with the same id apart across users and apps', async () => {
      const forU1 = await ctx.session({ userId: 'u1', sessionId: 'same', state: { who: 'u1' } });
      const forU2 = await ctx.session({ userId: 'u2', sessionId: 'same', state: { who: 'u2' } });
      const otherApp = await ctx.service.createSession({
        appName: `${ctx.appName}-other`,
        userId: 'u1',
        sessionId: 'same',
        state: { who: 'other-app' },
      });
      await ctx.service.appendEvent({ session: forU1, event: deltaEvent({ touched: true }) });
      expect((await ctx.reload(forU2)).state).toEqual({ who: 'u2' });
      expect((await ctx.reload(forU2)).events).toEqual([]);
      const other = await ctx.service.getSession({
        appName: otherApp.appName,
        userId: 'u1',
        sessionId: 'same',
      });
      expect(other?.state).toEqual({ who: 'other-app' });
      await ctx.service.deleteSession({
        appName: otherApp.appName,
        userId: 'u1',
        sessionId: 'same',
      });
    });

    it('returns undefined for a missing app, user or session', async () => {
      const session = await ctx.session();
      const get = (appName: string, userId: string, sessionId: string) =>
        ctx.service.getSession({ appName, userId, sessionId });
      expect(await get(ctx.appName, 'u1', 'missing')).toBeUndefined();
      expect(await get(ctx.appName, 'someone-else', session.id)).toBeUndefined();
      expect(await get(`${ctx.appName}-missing`, 'u1', session.id)).toBeUndefined();
    });

    it('lists sessions of one user or of every user, without events, with merged state', async () => {
      const a = await ctx.session({ userId: 'u1', state: { name: 'a', 'user:lang': 'fr' } });
      const b = await ctx.session({ userId: 'u1', state: { name: 'b', 'app:theme': 'dark' } });
      const c = await ctx.session({ userId: 'u2', state: { name: 'c' } });
      for (const session of [a, b, c]) {
        await ctx.service.appendEvent({ session, event: deltaEvent({ seen: true }) });
      }
      const mine = await ctx.service.listSessions({ appName: ctx.appName, userId: 'u1' });
      expect(mine.sessions.map((s) => s.id).sort()).toEqual([a.id, b.id].sort());
      for (const listed of mine.sessions) {
        expect(listed.events).toEqual([]);
        expect(listed.userId).toBe('u1');
        expect(listed.state).toMatchObject({ seen: true, 'user:lang': 'fr', 'app:theme': 'dark' });
        expect(listed.lastUpdateTime).toBe((await ctx.reload(listed)).lastUpdateTime);
      }
      const all = await ctx.service.listSessions({ appName: ctx.appName });
      expect(all.sessions.map((s) => s.id).sort()).toEqual([a.id, b.id, c.id].sort());
      const fromC = all.sessions.find((s) => s.id === c.id);
      expect(fromC?.state).toEqual({ name: 'c', seen: true, 'app:theme': 'dark' });
      expect((await ctx.service.listSessions({ appName: `${ctx.appName}-none` })).sessions).toEqual(
        [],
      );
      expect(
        (await ctx.service.listSessions({ appName: ctx.appName, userId: 'nobody' })).sessions,
      ).toEqual([]);
    });

    it('deletes a session with its events and keeps app and user state', async () => {
      const session = await ctx.session({ sessionId: 'to-delete' });
      await ctx.service.appendEvent({
        session,
        event: deltaEvent({ 'app:kept': 1, 'user:kept': 2, mine: 3 }),
      });
      await ctx.service.deleteSession({
        appName: ctx.appName,
        userId: 'u1',
        sessionId: 'to-delete',
      });
      expect(
        await ctx.service.getSession({
          appName: ctx.appName,
          userId: 'u1',
          sessionId: 'to-delete',
        }),
      ).toBeUndefined();
      expect((await ctx.service.listSessions({ appName: ctx.appName })).sessions).toEqual([]);
      const again = await ctx.session({ sessionId: 'to-delete' });
      expect(again.events).toEqual([]);
      expect(again.state).toEqual({ 'app:kept': 1, 'user:kept': 2 });
      expect((await ctx.reload(again)).events).toEqual([]);
    });

    it('treats deleting a missing session as a no-op', async () => {
      await expect(
        ctx.service.deleteSession({ appName: ctx.appName, userId: 'u1', sessionId: 'never-was' }),
      ).resolves.toBeUndefined();
    });

    it('refuses an append to a missing session with SessionNotFoundError', async () => {
      const session = await ctx.session();
      await ctx.service.deleteSession({
        appName: ctx.appName,
        userId: 'u1',
        sessionId: session.id,
      });
      const error = await caught(() =>
        ctx.service.appendEvent({
          session,
          event: createEvent({ invocationId: 'i', author: 'user' }),
        }),
      );
      expect(SessionNotFoundError.isInstance(error)).toBe(true);
    });

    it('refuses empty ids and bad windows with InvalidArgumentError', async () => {
      expect(InvalidArgumentError.isInstance(await caught(() => ctx.session({ userId: '' })))).toBe(
        true,
      );
      const session = await ctx.session();
      for (const window of [
        { numRecentEvents: -1 },
        { numRecentEvents: 1.5 },
        { afterTimestamp: Number.NaN },
      ]) {
        expect(
          InvalidArgumentError.isInstance(await caught(() => ctx.reload(session, window))),
        ).toBe(true);
      }
    });
  });
}
