import { createEvent } from '@adk/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { SqlSessionService } from '../src';
import { testBackends, type Backend } from './backends';

/** Statements that make every insert or update of `table` fail, and the ones that undo them. */
function failureTrigger(backend: Backend, table: string): { arm: string[]; disarm: string[] } {
  if (backend.label === 'SQLite file') {
    return {
      arm: ['insert', 'update'].map(
        (op) =>
          `create trigger adk_fail_${table}_${op} before ${op} on ${table} begin select raise(abort, 'injected failure on ${table}'); end`,
      ),
      disarm: ['insert', 'update'].map((op) => `drop trigger adk_fail_${table}_${op}`),
    };
  }
  return {
    arm: [
      `create or replace function adk_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure on %', tg_table_name; end $$`,
      `create trigger adk_fail_${table} before insert or update on ${table} for each row execute function adk_fail()`,
    ],
    disarm: [`drop trigger adk_fail_${table} on ${table}`],
  };
}

for (const backend of await testBackends()) {
  describe.skipIf(!backend.available)(`failure mid-transaction (${backend.label})`, () => {
    let service: SqlSessionService;

    beforeAll(async () => {
      await backend.setup();
      service = await backend.service();
    });
    afterAll(async () => {
      await service?.close();
      await backend.teardown();
    });

    async function run(statements: string[]): Promise<void> {
      const db = backend.kysely();
      try {
        for (const statement of statements) await sql.raw(statement).execute(db);
      } finally {
        await db.destroy();
      }
    }

    async function withFailureOn<T>(table: string, action: () => Promise<T>): Promise<T> {
      const trigger = failureTrigger(backend, table);
      await run(trigger.arm);
      try {
        return await action();
      } finally {
        await run(trigger.disarm);
      }
    }

    async function rowCounts(sessionId: string) {
      const db = backend.kysely();
      try {
        const count = async (table: 'events' | 'sessions', column: 'session_id' | 'id') =>
          Number(
            (
              await db
                .selectFrom(table)
                .select(sql<number>`count(*)`.as('n'))
                .where(column, '=', sessionId)
                .executeTakeFirstOrThrow()
            ).n,
          );
        return {
          events: await count('events', 'session_id'),
          sessions: await count('sessions', 'id'),
        };
      } finally {
        await db.destroy();
      }
    }

    for (const table of ['user_states', 'events']) {
      it(`an append that fails on its ${table} write leaves no event, no state and no new marker`, async () => {
        const session = await service.createSession({
          appName: `fail-${table}`,
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
        const key = { appName: `fail-${table}`, userId: 'u', sessionId: session.id };
        const before = await service.getSession(key);
        const callerBefore = structuredClone(session);
        const countsBefore = await rowCounts(session.id);

        const failing = createEvent({
          invocationId: 'i',
          author: 'a',
          actions: { stateDelta: { n: 2, 'app:a': 2, 'user:u': 2 } },
        });
        await expect(
          withFailureOn(table, () => service.appendEvent({ session, event: failing })),
        ).rejects.toThrow(/injected failure/);

        expect(await rowCounts(session.id)).toEqual(countsBefore);
        expect(await service.getSession(key)).toEqual(before);
        expect(session).toEqual(callerBefore);
        // The same object, untouched, can append again: nothing half-written moved the marker.
        await service.appendEvent({ session, event: failing });
        const after = await service.getSession(key);
        expect(after?.state).toEqual({ n: 2, 'app:a': 2, 'user:u': 2 });
        expect(after?.events.map((e) => e.id)).toEqual([
          ...before!.events.map((e) => e.id),
          failing.id,
        ]);
      });
    }

    it('a createSession that fails midway leaves no session row', async () => {
      await expect(
        withFailureOn('user_states', () =>
          service.createSession({
            appName: 'fail-create',
            userId: 'u',
            sessionId: 'half',
            state: { 'app:x': 1 },
          }),
        ),
      ).rejects.toThrow(/injected failure/);
      expect((await rowCounts('half')).sessions).toBe(0);
      expect(
        await service.getSession({ appName: 'fail-create', userId: 'u', sessionId: 'half' }),
      ).toBeUndefined();
      const fresh = await service.createSession({ appName: 'fail-create', userId: 'u2' });
      expect(fresh.state).toEqual({});
    });
  });
}
