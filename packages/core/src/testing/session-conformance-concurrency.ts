import { describe, expect, it } from 'vitest';

import type { Session } from '../sessions';
import { deltaEvent, type ConformanceContext } from './session-conformance-context';

/** Appends raced by reads in each test. */
const ROUNDS = 30;

/**
 * Check one read taken while appends were in flight: every event once, in append order, and the
 * session's state is the fold of exactly the events it lists (one snapshot, not a mix).
 */
function expectConsistentRead(read: Session, appendedIds: readonly string[]): void {
  const ids = read.events.map((event) => event.id);
  expect(new Set(ids).size, `duplicated events in a read: ${ids.join(', ')}`).toBe(ids.length);
  expect(ids).toEqual(appendedIds.slice(0, ids.length));
  expect(read.state).toEqual(ids.length === 0 ? {} : { n: ids.length - 1 });
}

/** Reads interleaved with appends to the same session. */
export function defineConcurrencyTests(ctx: ConformanceContext): void {
  describe('reads during appends', () => {
    it('lists every event once, in order, when a session is read while an append is in flight', async () => {
      const created = await ctx.session();
      // Appending through a Session that was read (as a runner does) lets a store extend what it
      // keeps of the session; reading it again meanwhile must not list the new event twice.
      let session = await ctx.reload(created);
      const appendedIds: string[] = [];
      const reads: Session[] = [];
      let appending = true;
      // Readers read back to back for as long as the writer appends, so reads straddle commits.
      const reader = async (): Promise<void> => {
        while (appending) reads.push(await ctx.reload(created));
      };
      const readers = [reader(), reader()];
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const event = deltaEvent({ n: round }, { id: `race-${round}` });
          appendedIds.push(event.id);
          await ctx.service.appendEvent({ session, event });
          // Every few rounds the writer continues from a fresh read, as the next turn would.
          if (round % 5 === 4) session = await ctx.reload(created);
        }
      } finally {
        appending = false;
        await Promise.all(readers);
      }
      expect(reads.length).toBeGreaterThan(0);
      for (const read of reads) expectConsistentRead(read, appendedIds);
      const last = await ctx.reload(created);
      expect(last.events.map((event) => event.id)).toEqual(appendedIds);
      expect(last.state).toEqual({ n: ROUNDS - 1 });
    });

    it('hands every concurrent reader the same events as a read after the appends settle', async () => {
      const created = await ctx.session();
      const writer = await ctx.reload(created);
      const appendedIds: string[] = [];
      const reads: Promise<Session>[] = [];
      const appends: Promise<unknown>[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const event = deltaEvent({ n: round }, { id: `burst-${round}` });
        appendedIds.push(event.id);
        // Appends through one object run in call order; reads race all of them.
        appends.push(ctx.service.appendEvent({ session: writer, event }));
        reads.push(ctx.reload(created));
      }
      await Promise.all(appends);
      for (const read of await Promise.all(reads)) expectConsistentRead(read, appendedIds);
      expect((await ctx.reload(created)).events.map((event) => event.id)).toEqual(appendedIds);
    });
  });
}
