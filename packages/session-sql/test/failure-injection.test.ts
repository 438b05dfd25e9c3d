import { createEvent, type Session } from '@adk/core';
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SqlSessionService } from '../src';
import { testBackends } from './backends';

/** Throws when armed and the query inserts into `table`: a failure in the middle of a transaction. */
class FailOnInsert implements KyselyPlugin {
  armedFor: string | undefined;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (
      this.armedFor !== undefined &&
      node.kind === 'InsertQueryNode' &&
      node.into?.table.identifier.name === this.armedFor
    ) {
      throw new TypeError(`injected failure on insert into ${this.armedFor}`);
    }
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

for (const backend of await testBackends()) {
  describe.skipIf(!backend.available)(`failure mid-transaction (${backend.label})`, () => {
    const plugin = new FailOnInsert();
    let service: SqlSessionService;

    beforeAll(async () => {
      await backend.setup();
      service = await backend.service([plugin]);
    });
    afterAll(async () => {
      await service?.close();
      await backend.teardown();
    });

    async function rowCounts(session: Session) {
      const db = backend.kysely();
      try {
        const events = await db
          .selectFrom('events')
          .select(sql<number>`count(*)`.as('n'))
          .where('session_id', '=', session.id)
          .executeTakeFirstOrThrow();
        const sessions = await db
          .selectFrom('sessions')
          .select(sql<number>`count(*)`.as('n'))
          .executeTakeFirstOrThrow();
        return { events: Number(events.n), sessions: Number(sessions.n) };
      } finally {
        await db.destroy();
      }
    }

    it('an append that fails at its last write leaves no event, no state and no new marker', async () => {
      const session = await service.createSession({
        appName: 'fail',
        userId: 'u',
        state: { n: 0 },
      });
      await service.appendEvent({
        session,
        event: createEvent({
          invocationId: 'i',
          author: 'a',
          actions: { stateDelta: { n: 1, 'app:a': 1, 'user:u': 1 } },
        }),
      });
      const before = await service.getSession({
        appName: 'fail',
        userId: 'u',
        sessionId: session.id,
      });
      const callerBefore = structuredClone(session);
      const countsBefore = await rowCounts(session);

      plugin.armedFor = 'user_states';
      const failing = createEvent({
        invocationId: 'i',
        author: 'a',
        actions: { stateDelta: { n: 2, 'app:a': 2, 'user:u': 2 } },
      });
      await expect(service.appendEvent({ session, event: failing })).rejects.toThrow(
        /injected failure/,
      );
      plugin.armedFor = undefined;

      expect(await rowCounts(session)).toEqual(countsBefore);
      expect(
        await service.getSession({ appName: 'fail', userId: 'u', sessionId: session.id }),
      ).toEqual(before);
      expect(session).toEqual(callerBefore);
      // The same object, untouched, can append again: nothing half-written moved the marker.
      await service.appendEvent({ session, event: failing });
      const after = await service.getSession({
        appName: 'fail',
        userId: 'u',
        sessionId: session.id,
      });
      expect(after?.state).toEqual({ n: 2, 'app:a': 2, 'user:u': 2 });
      expect(after?.events.map((e) => e.id)).toEqual([
        ...before!.events.map((e) => e.id),
        failing.id,
      ]);
    });

    it('a createSession that fails midway leaves no session row', async () => {
      const before = await rowCounts({ id: 'none' } as Session);
      plugin.armedFor = 'user_states';
      await expect(
        service.createSession({
          appName: 'fail-create',
          userId: 'u',
          sessionId: 'half',
          state: { 'app:x': 1 },
        }),
      ).rejects.toThrow(/injected failure/);
      plugin.armedFor = undefined;
      expect((await rowCounts({ id: 'none' } as Session)).sessions).toBe(before.sessions);
      expect(
        await service.getSession({ appName: 'fail-create', userId: 'u', sessionId: 'half' }),
      ).toBeUndefined();
      const fresh = await service.createSession({ appName: 'fail-create', userId: 'u2' });
      expect(fresh.state).toEqual({});
    });
  });
}
