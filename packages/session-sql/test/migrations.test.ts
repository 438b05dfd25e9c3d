import { randomUUID } from 'node:crypto';

import {
  dropPostgresSchema,
  postgresKysely,
  postgresSchemaName,
  postgresUnavailable,
  sqliteKysely,
  temporaryDirectory,
} from '@adk/test-databases';
import { sql, type Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { SchemaVersionError, SqlSessionService, type SessionDatabase } from '../src';

/** A brand-new empty database per test: a SQLite file, or a PostgreSQL schema (`schema` option). */
interface FreshDatabase {
  service(options?: { autoMigrate?: boolean }): SqlSessionService;
  raw<T = Record<string, unknown>>(query: string): Promise<T[]>;
  tables(): Promise<string[]>;
}

const pgAvailable = (await postgresUnavailable()) === undefined;
const temp = temporaryDirectory('adk-session-sql-');
const schemas: string[] = [];
const opened: Kysely<SessionDatabase>[] = [];

afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  temp.remove();
  for (const schema of schemas) await dropPostgresSchema(schema);
});

const kinds = [
  {
    label: 'SQLite file',
    available: true,
    fresh(): FreshDatabase {
      const path = temp.file(`${randomUUID()}.db`);
      const rawDb = sqliteKysely(path, { wal: true });
      opened.push(rawDb);
      return {
        service: (options = {}) => {
          const db = sqliteKysely(path, { wal: true });
          opened.push(db);
          return new SqlSessionService({ db, ...options });
        },
        raw: async <T>(query: string) => (await sql.raw<T>(query).execute(rawDb)).rows,
        tables: async () =>
          (
            await sql
              .raw<{ name: string }>(
                `select name from sqlite_master where type = 'table' order by name`,
              )
              .execute(rawDb)
          ).rows.map((r) => r.name),
      };
    },
    adkJsDdl: [
      'create table adk_internal_metadata (key text not null primary key, value text not null)',
      'create table app_states (app_name text not null primary key, state json not null, update_time datetime not null)',
      'create table user_states (app_name text not null, user_id text not null, state json not null, update_time datetime not null, primary key (app_name, user_id))',
      'create table sessions (id text not null, app_name text not null, user_id text not null, state json not null, create_time datetime not null, update_time datetime not null, primary key (id, app_name, user_id))',
      'create table events (id text not null, app_name text not null, user_id text not null, session_id text not null, invocation_id text not null, timestamp datetime not null, event_data json not null, primary key (id, app_name, user_id, session_id))',
    ],
    time: (ms: number) => String(ms),
  },
  {
    label: 'PostgreSQL',
    available: pgAvailable,
    fresh(): FreshDatabase {
      const schema = postgresSchemaName();
      schemas.push(schema);
      const rawDb = postgresKysely(schema, { max: 4 });
      opened.push(rawDb);
      return {
        service: (options = {}) => {
          const db = postgresKysely('public', { max: 4 });
          opened.push(db);
          return new SqlSessionService({ db, schema, ...options });
        },
        raw: async <T>(query: string) => {
          await sql`create schema if not exists ${sql.id(schema)}`.execute(rawDb);
          return (await sql.raw<T>(query).execute(rawDb)).rows;
        },
        tables: async () =>
          (
            await sql<{
              name: string;
            }>`select table_name as name from information_schema.tables where table_schema = ${schema} order by table_name`.execute(
              rawDb,
            )
          ).rows.map((r) => r.name),
      };
    },
    adkJsDdl: [
      'create table adk_internal_metadata (key varchar(255) not null primary key, value varchar(255) not null)',
      'create table app_states (app_name varchar(191) not null primary key, state jsonb not null, update_time timestamptz not null)',
      'create table user_states (app_name varchar(191) not null, user_id varchar(191) not null, state jsonb not null, update_time timestamptz not null, primary key (app_name, user_id))',
      'create table sessions (id varchar(191) not null, app_name varchar(191) not null, user_id varchar(191) not null, state jsonb not null, create_time timestamptz not null, update_time timestamptz not null, primary key (id, app_name, user_id))',
      'create table events (id varchar(191) not null, app_name varchar(191) not null, user_id varchar(191) not null, session_id varchar(191) not null, invocation_id varchar(255) not null, timestamp timestamptz not null, event_data jsonb not null, primary key (id, app_name, user_id, session_id))',
    ],
    time: (ms: number) => `to_timestamp(${ms / 1000})`,
  },
];

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

for (const kind of kinds) {
  describe.skipIf(!kind.available)(`schema and migrations (${kind.label})`, () => {
    it('refuses to work on a database without the tables until migrate() runs', async () => {
      const database = kind.fresh();
      const service = database.service();
      const error = await caught(service.createSession({ appName: 'a', userId: 'u' }));
      expect(SchemaVersionError.isInstance(error)).toBe(true);
      expect((error as SchemaVersionError).found).toBeUndefined();
      expect(await database.tables()).not.toContain('sessions');
      await service.migrate();
      await expect(service.createSession({ appName: 'a', userId: 'u' })).resolves.toMatchObject({
        appName: 'a',
      });
    });

    it('creates the tables on first use with autoMigrate, and migrating again changes nothing', async () => {
      const database = kind.fresh();
      const service = database.service({ autoMigrate: true });
      const session = await service.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
      expect(await database.tables()).toEqual(
        expect.arrayContaining([
          'adk_internal_metadata',
          'app_states',
          'events',
          'sessions',
          'user_states',
        ]),
      );
      await service.migrate();
      await database.service().migrate();
      expect(
        await database.service().getSession({ appName: 'a', userId: 'u', sessionId: 's' }),
      ).toEqual(session);
      expect(await database.raw(`select key, value from adk_internal_metadata`)).toEqual([
        { key: 'schema_version', value: '1' },
      ]);
    });

    it('refuses a newer schema_version before changing anything', async () => {
      const database = kind.fresh();
      await database.raw(kind.adkJsDdl[0]!);
      await database.raw(
        `insert into adk_internal_metadata (key, value) values ('schema_version', '2')`,
      );
      const error = await caught(database.service().migrate());
      expect(SchemaVersionError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ found: '2', supported: '1' });
      expect(await database.tables()).toEqual(['adk_internal_metadata']);
      const auto = await caught(
        database.service({ autoMigrate: true }).listSessions({ appName: 'a' }),
      );
      expect(SchemaVersionError.isInstance(auto)).toBe(true);
      const plain = await caught(
        database.service().getSession({ appName: 'a', userId: 'u', sessionId: 's' }),
      );
      expect(SchemaVersionError.isInstance(plain)).toBe(true);
    });

    it('refuses a database migrated by a newer @adk/session-sql', async () => {
      const database = kind.fresh();
      await database.service().migrate();
      await database.raw(
        `insert into adk_session_migration (name, timestamp) values ('999_from_the_future', '2030-01-01T00:00:00.000Z')`,
      );
      const error = await caught(database.service().migrate());
      expect(SchemaVersionError.isInstance(error)).toBe(true);
    });

    it('adopts tables and rows written by @google/adk and keeps using them', async () => {
      const database = kind.fresh();
      for (const statement of kind.adkJsDdl) await database.raw(statement);
      const t0 = 1_768_469_400_000;
      await database.raw(`insert into adk_internal_metadata values ('schema_version', '1')`);
      await database.raw(
        `insert into app_states values ('weather', '{"units":"metric"}', ${kind.time(t0)})`,
      );
      await database.raw(
        `insert into user_states values ('weather', 'alice', '{"home":"Lyon"}', ${kind.time(t0)})`,
      );
      await database.raw(
        `insert into sessions values ('wa-1', 'weather', 'alice', '{"last_city":"Paris"}', ${kind.time(t0)}, ${kind.time(t0 + 2)})`,
      );
      const first = {
        id: 'e-1',
        invocation_id: 'inv-1',
        author: 'user',
        timestamp: t0 + 1,
        long_running_tool_ids: [],
        actions: {
          state_delta: {},
          artifact_delta: {},
          requested_auth_configs: {},
          requested_tool_confirmations: {},
        },
        content: { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      };
      const second = {
        id: 'e-2',
        invocation_id: 'inv-1',
        author: 'weather_agent',
        timestamp: t0 + 2,
        long_running_tool_ids: [],
        actions: {
          state_delta: { last_city: 'Paris' },
          artifact_delta: {},
          requested_auth_configs: {},
          requested_tool_confirmations: {},
        },
        content: {
          role: 'model',
          parts: [
            { function_call: { id: 'fc-1', name: 'get_weather', args: { cityName: 'Paris' } } },
          ],
        },
      };
      for (const event of [first, second]) {
        await database.raw(
          `insert into events values ('${event.id}', 'weather', 'alice', 'wa-1', 'inv-1', ${kind.time(event.timestamp)}, '${JSON.stringify(event)}')`,
        );
      }
      const service = database.service();
      await service.migrate();
      const session = await service.getSession({
        appName: 'weather',
        userId: 'alice',
        sessionId: 'wa-1',
      });
      expect(session).toMatchObject({
        state: { last_city: 'Paris', 'app:units': 'metric', 'user:home': 'Lyon' },
        lastUpdateTime: t0 + 2,
      });
      expect(session?.events.map((e) => e.id)).toEqual(['e-1', 'e-2']);
      expect(session?.events[1]?.content?.parts[0]?.functionCall).toEqual({
        id: 'fc-1',
        name: 'get_weather',
        args: { cityName: 'Paris' },
      });
      expect(session?.events[1]?.actions.stateDelta).toEqual({ last_city: 'Paris' });
      await service.appendEvent({
        session: session!,
        event: {
          id: 'e-3',
          invocationId: 'inv-2',
          author: 'user',
          timestamp: t0 + 5,
          actions: {
            stateDelta: { 'user:home': 'Nice' },
            artifactDelta: {},
            requestedToolConfirmations: {},
          },
        },
      });
      const again = await service.getSession({
        appName: 'weather',
        userId: 'alice',
        sessionId: 'wa-1',
      });
      expect(again?.events.map((e) => e.id)).toEqual(['e-1', 'e-2', 'e-3']);
      expect(again?.state['user:home']).toBe('Nice');
    });
  });
}
