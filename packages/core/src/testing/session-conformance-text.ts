import { describe, expect, it } from 'vitest';

import { modelContent } from '../content';
import type { EventInit } from '../events';
import { InvalidArgumentError } from '../errors';
import { caught, deltaEvent, type ConformanceContext } from './session-conformance-context';

const LONE_HIGH = 'broken \uD83D text';
const LONE_LOW = 'broken \uDE00 text';

/** Text every store keeps exactly, and text (lone UTF-16 surrogates) every store refuses alike. */
export function defineTextTests(ctx: ConformanceContext): void {
  describe('text', () => {
    it('keeps astral characters, combining marks and right-to-left text exactly', async () => {
      const session = await ctx.session({ state: { greeting: 'héllo 😀 ש' } });
      const text = 'e\u0301 😀👩‍👩‍👧 \uFFFD עברית';
      await ctx.service.appendEvent({
        session,
        event: deltaEvent({ 'user:emoji': '🎉' }, { content: modelContent(text) }),
      });
      const got = await ctx.reload(session);
      expect(got.events[0]?.content?.parts?.[0]?.text).toBe(text);
      expect(got.state).toEqual({ greeting: 'héllo 😀 ש', 'user:emoji': '🎉' });
    });

    const cases: Array<[string, Partial<EventInit>]> = [
      ['content text', { content: modelContent(LONE_HIGH) }],
      ['a state value', { actions: { stateDelta: { note: LONE_LOW } } }],
      ['a state key', { actions: { stateDelta: { [LONE_HIGH]: 1 } } }],
      [
        'function call arguments',
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'f', args: { q: LONE_LOW } } }],
          },
        },
      ],
    ];
    for (const [where, init] of cases) {
      it(`refuses a lone UTF-16 surrogate in ${where} with InvalidArgumentError, storing nothing`, async () => {
        const session = await ctx.session();
        const snapshot = structuredClone(session);
        const error = await caught(() =>
          ctx.service.appendEvent({ session, event: deltaEvent({}, init) }),
        );
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(/surrogate/);
        expect(session).toEqual(snapshot);
        expect(await ctx.reload(session)).toEqual(snapshot);
        // The session still takes well-formed events.
        await ctx.service.appendEvent({ session, event: deltaEvent({ ok: true }) });
        expect((await ctx.reload(session)).state).toEqual({ ok: true });
      });
    }

    it('refuses a lone surrogate in createSession state or ids, creating nothing', async () => {
      const inState = await caught(() => ctx.session({ state: { 'app:name': LONE_HIGH } }));
      expect(InvalidArgumentError.isInstance(inState)).toBe(true);
      const inId = await caught(() => ctx.session({ sessionId: `s-${LONE_LOW}` }));
      expect(InvalidArgumentError.isInstance(inId)).toBe(true);
      const { sessions } = await ctx.service.listSessions({ appName: ctx.appName, userId: 'u1' });
      expect(sessions).toEqual([]);
      // No app: key leaked into shared state either.
      expect((await ctx.session()).state).toEqual({});
    });
  });
}
