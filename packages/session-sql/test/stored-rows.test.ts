import { createEvent, InvalidArgumentError } from '@adk/core';
import { eventWithEveryField } from '@adk/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { CorruptEventError, type SqlSessionService } from '../src';
import { testBackends } from './backends';

for (const backend of await testBackends()) {
  describe.skipIf(!backend.available)(`stored rows (${backend.label})`, () => {
    let service: SqlSessionService;
    beforeAll(async () => {
      await backend.setup();
      service = await backend.service();
    });
    afterAll(async () => {
      await service?.close();
      await backend.teardown();
    });

    async function raw<T>(query: string): Promise<T[]> {
      const db = backend.kysely();
      try {
        return (await sql.raw<T>(query).execute(db)).rows;
      } finally {
        await db.destroy();
      }
    }

    it('writes the @google/adk layout: snake_case event_data with preserved user keys, ms times, unprefixed scopes', async () => {
      const session = await service.createSession({
        appName: 'layout',
        userId: 'u',
        sessionId: 's-layout',
      });
      const event = eventWithEveryField(1_768_469_401_123);
      event.actions.stateDelta['temp:hidden'] = 'never stored';
      await service.appendEvent({ session, event });

      const [row] = await raw<{
        id: string;
        invocation_id: string;
        timestamp: unknown;
        event_data: unknown;
      }>(
        `select id, invocation_id, timestamp, event_data from events where session_id = 's-layout'`,
      );
      expect(row?.id).toBe('evt-full-1');
      expect(row?.invocation_id).toBe('inv-full');
      const data = (
        typeof row?.event_data === 'string' ? JSON.parse(row.event_data) : row?.event_data
      ) as Record<string, unknown>;
      expect(data).toMatchObject({
        id: 'evt-full-1',
        invocation_id: 'inv-full',
        timestamp: 1_768_469_401_123,
        turn_complete: true,
        long_running_tool_ids: ['fc-1'],
        usage_metadata: { prompt_token_count: 10 },
        custom_metadata: { traceId: 'abc', snake_case: 1 },
        actions: {
          state_delta: {
            last_city: 'Paris',
            lastCity: 'Paris',
            'app:hits': 1,
            'user:homeCity': 'Lyon',
          },
          transfer_to_agent: 'billing_agent',
          skip_summarization: true,
          requested_tool_confirmations: { 'fc-1': { hint: 'Send it?', confirmed: false } },
        },
      });
      const parts = (data.content as unknown as { parts: Record<string, unknown>[] }).parts;
      expect(parts[0]).toMatchObject({ thought_signature: 'c2ln' });
      expect(parts[4]).toEqual({
        function_call: {
          id: 'fc-1',
          name: 'get_weather',
          args: {
            cityName: 'Paris',
            unit_system: 'metric',
            nested: { innerKey: [1, { deep_key: true }] },
          },
        },
      });
      expect(parts[5]).toMatchObject({
        function_response: { response: { tempC: 21, wind_speed: 3 } },
      });
      expect(JSON.stringify(data)).not.toContain('temp:hidden');

      const [sessionRow] = await raw<{
        update_time: unknown;
        create_time: unknown;
        state: unknown;
      }>(`select update_time, create_time, state from sessions where id = 's-layout'`);
      const [appRow] = await raw<{ state: unknown }>(
        `select state from app_states where app_name = 'layout'`,
      );
      const [userRow] = await raw<{ state: unknown }>(
        `select state from user_states where app_name = 'layout'`,
      );
      const json = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value);
      expect(json(sessionRow?.state)).toEqual({ last_city: 'Paris', lastCity: 'Paris' });
      expect(json(appRow?.state)).toEqual({ hits: 1 });
      expect(json(userRow?.state)).toEqual({ homeCity: 'Lyon' });
      if (backend.label === 'SQLite file') {
        expect(typeof sessionRow?.update_time).toBe('number');
        expect(row?.timestamp).toBe(1_768_469_401_123);
        const [types] = await raw<{ t: string }>(
          `select typeof(timestamp) as t from events where session_id = 's-layout'`,
        );
        expect(types?.t).toBe('integer');
      } else {
        expect(row?.timestamp).toBeInstanceOf(Date);
        expect((row?.timestamp as Date).getTime()).toBe(1_768_469_401_123);
        expect((sessionRow?.update_time as Date).getTime()).toBe(session.lastUpdateTime);
      }
      const [version] = await raw<{ value: string }>(
        `select value from adk_internal_metadata where key = 'schema_version'`,
      );
      expect(version?.value).toBe('1');
    });

    it('refuses values the database cannot store with InvalidArgumentError, writing nothing', async () => {
      const session = await service.createSession({
        appName: 'unstorable',
        userId: 'u',
        sessionId: 's-unstorable',
      });
      const before = await service.getSession({
        appName: 'unstorable',
        userId: 'u',
        sessionId: 's-unstorable',
      });
      const nul = createEvent({
        invocationId: 'i',
        author: 'a',
        content: { role: 'model', parts: [{ text: 'a\u0000b' }] },
        actions: { stateDelta: { k: 1 } },
      });
      const longId = 'x'.repeat(300);
      if (backend.label === 'PostgreSQL') {
        const error = await service.appendEvent({ session, event: nul }).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
        expect(
          await service.getSession({
            appName: 'unstorable',
            userId: 'u',
            sessionId: 's-unstorable',
          }),
        ).toEqual(before);
        const tooLong = await service.createSession({ appName: 'unstorable', userId: longId }).then(
          () => undefined,
          (thrown: unknown) => thrown,
        );
        expect(InvalidArgumentError.isInstance(tooLong)).toBe(true);
        expect((await service.listSessions({ appName: 'unstorable' })).sessions).toHaveLength(1);
      } else {
        // SQLite stores both as they are.
        await service.appendEvent({ session, event: nul });
        const got = await service.getSession({
          appName: 'unstorable',
          userId: 'u',
          sessionId: 's-unstorable',
        });
        expect(got?.events[0]?.content?.parts[0]?.text).toBe('a\u0000b');
        await expect(
          service.createSession({ appName: 'unstorable', userId: longId }),
        ).resolves.toMatchObject({ userId: longId });
      }
    });

    it('reports a corrupt event row with a typed error naming the session and the event', async () => {
      const session = await service.createSession({
        appName: 'corrupt',
        userId: 'u',
        sessionId: 's-corrupt',
      });
      await service.appendEvent({
        session,
        event: createEvent({ id: 'good', invocationId: 'i', author: 'a' }),
      });
      await service.appendEvent({
        session,
        event: createEvent({ id: 'bad', invocationId: 'i', author: 'a' }),
      });
      const corruptions =
        backend.label === 'SQLite file'
          ? [`'{not json'`, `'[1,2]'`, `'{"author": 5, "timestamp": 1}'`]
          : [
              `'[1,2]'::jsonb`,
              `'{"author": 5, "timestamp": 1}'::jsonb`,
              `'"just a string"'::jsonb`,
              `'{"author": "a", "actions": [1]}'::jsonb`,
            ];
      for (const value of corruptions) {
        await raw(`update events set event_data = ${value} where id = 'bad'`);
        const error = await service
          .getSession({ appName: 'corrupt', userId: 'u', sessionId: 's-corrupt' })
          .then(
            () => undefined,
            (thrown: unknown) => thrown,
          );
        expect(CorruptEventError.isInstance(error)).toBe(true);
        const corrupt = error as CorruptEventError;
        expect(corrupt.sessionId).toBe('s-corrupt');
        expect(corrupt.eventId).toBe('bad');
        expect(corrupt.message).toContain('s-corrupt');
        expect(corrupt.message).toContain('bad');
      }
      // A window that leaves the bad row out still reads, and listing is unaffected.
      await raw(`delete from events where id = 'bad'`);
      const healthy = await service.getSession({
        appName: 'corrupt',
        userId: 'u',
        sessionId: 's-corrupt',
      });
      expect(healthy?.events.map((e) => e.id)).toEqual(['good']);
    });

    it('reads an event the Python ADK wrote (timestamp in seconds, naive UTC column text on SQLite)', async () => {
      await service.createSession({ appName: 'python', userId: 'u', sessionId: 's-python' });
      const data = JSON.stringify({
        id: 'py-1',
        invocation_id: 'e-123',
        author: 'user',
        timestamp: 1768469400.123,
        actions: { state_delta: {}, artifact_delta: {}, requested_auth_configs: {} },
        content: { role: 'user', parts: [{ text: 'hello from python' }] },
      });
      const column =
        backend.label === 'SQLite file'
          ? `'2026-01-15 09:30:00.123000'`
          : `'2026-01-15 09:30:00.123+00'::timestamptz`;
      await raw(
        `insert into events (id, app_name, user_id, session_id, invocation_id, timestamp, event_data) values ('py-1', 'python', 'u', 's-python', 'e-123', ${column}, '${data}')`,
      );
      const got = await service.getSession({
        appName: 'python',
        userId: 'u',
        sessionId: 's-python',
      });
      expect(got?.events[0]).toMatchObject({
        id: 'py-1',
        author: 'user',
        timestamp: 1_768_469_400_123,
      });
      expect(got?.events[0]?.content?.parts[0]?.text).toBe('hello from python');
    });

    it('accepts revision markers written by other ADKs (microseconds, SQLAlchemy text) without spurious staleness', async () => {
      await service.createSession({
        appName: 'markers',
        userId: 'u',
        sessionId: 's-markers',
        state: { a: 1 },
      });
      const foreign =
        backend.label === 'SQLite file'
          ? `'2026-01-15 09:30:00.123456'`
          : `'2026-01-15 09:30:00.123456+00'::timestamptz`;
      await raw(`update sessions set update_time = ${foreign} where id = 's-markers'`);
      const session = await service.getSession({
        appName: 'markers',
        userId: 'u',
        sessionId: 's-markers',
      });
      expect(session?.lastUpdateTime).toBe(Date.UTC(2026, 0, 15, 9, 30, 0, 123));
      await service.appendEvent({
        session: session!,
        event: createEvent({ invocationId: 'i', author: 'a', actions: { stateDelta: { a: 2 } } }),
      });
      const again = await service.getSession({
        appName: 'markers',
        userId: 'u',
        sessionId: 's-markers',
      });
      expect(again?.state).toEqual({ a: 2 });
      expect(again?.lastUpdateTime).toBe(session!.lastUpdateTime);
    });

    it('reads a row written without id, invocation_id or timestamp in event_data from its columns', async () => {
      const session = await service.createSession({
        appName: 'overlay',
        userId: 'u',
        sessionId: 's-overlay',
      });
      await service.appendEvent({
        session,
        event: createEvent({
          id: 'e1',
          invocationId: 'inv-x',
          author: 'a',
          timestamp: 1_700_000_000_000,
        }),
      });
      const stripped =
        backend.label === 'SQLite file'
          ? `json_remove(event_data, '$.id', '$.invocation_id', '$.timestamp')`
          : `event_data - 'id' - 'invocation_id' - 'timestamp'`;
      await raw(`update events set event_data = ${stripped} where id = 'e1'`);
      const got = await service.getSession({
        appName: 'overlay',
        userId: 'u',
        sessionId: 's-overlay',
      });
      expect(got?.events[0]).toMatchObject({
        id: 'e1',
        invocationId: 'inv-x',
        author: 'a',
        timestamp: 1_700_000_000_000,
      });
    });
  });
}
