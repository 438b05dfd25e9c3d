import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import {
  createPostgresSchema,
  dropPostgresSchema,
  postgresKysely,
  postgresSchemaName,
  postgresUnavailable,
} from '@adk/test-databases';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';

import { SchemaVersionError, SqlSessionService } from '../src';

const run = promisify(execFile);
const reader = fileURLToPath(new URL('./fixtures/foreign-reader.ts', import.meta.url));
const pgAvailable = (await postgresUnavailable()) === undefined;
const schemas: string[] = [];
afterAll(async () => {
  for (const schema of schemas) await dropPostgresSchema(schema);
});

/** The DDL SQLAlchemy emits for the Python ADK's v1 models on PostgreSQL (naive UTC times). */
const PYTHON_V1_DDL = [
  `create table adk_internal_metadata (key varchar(128) primary key, value varchar(256) not null)`,
  `create table app_states (app_name varchar(128) primary key, state jsonb not null, update_time timestamp without time zone not null)`,
  `create table user_states (app_name varchar(128) not null, user_id varchar(128) not null, state jsonb not null, update_time timestamp without time zone not null, primary key (app_name, user_id))`,
  `create table sessions (app_name varchar(128) not null, user_id varchar(128) not null, id varchar(128) not null, state jsonb not null, create_time timestamp without time zone not null, update_time timestamp without time zone not null, primary key (app_name, user_id, id))`,
  `create table events (id varchar(128) not null, app_name varchar(128) not null, user_id varchar(128) not null, session_id varchar(128) not null, invocation_id varchar(256) not null, timestamp timestamp without time zone not null, event_data jsonb, primary key (id, app_name, user_id, session_id), foreign key (app_name, user_id, session_id) references sessions (app_name, user_id, id) on delete cascade)`,
  `create index idx_events_app_user_session_ts on events (app_name, user_id, session_id, timestamp)`,
];

function pythonEvent(id: string, seconds: number, extra: Record<string, unknown>) {
  return JSON.stringify({
    id,
    invocation_id: 'inv-1',
    author: 'weather_agent',
    timestamp: seconds,
    actions: { state_delta: {}, artifact_delta: {} },
    ...extra,
  });
}

/** A new schema holding what the Python ADK wrote: times as UTC wall time, seconds in JSON. */
async function pythonSchema(): Promise<string> {
  const schema = postgresSchemaName('py');
  schemas.push(schema);
  await createPostgresSchema(schema);
  const db = postgresKysely(schema, { max: 1 });
  try {
    for (const statement of PYTHON_V1_DDL) await sql.raw(statement).execute(db);
    await sql`insert into adk_internal_metadata values ('schema_version', '1')`.execute(db);
    await sql`insert into app_states values ('weather', '{"units":"metric"}', '2026-01-15 09:30:00')`.execute(
      db,
    );
    await sql`insert into user_states values ('weather', 'alice', '{"home":"Lyon"}', '2026-01-15 09:30:00')`.execute(
      db,
    );
    await sql`insert into sessions values ('weather', 'alice', 'py-1', '{"last_city":"Paris"}', '2026-01-15 09:30:00', '2026-01-15 09:30:02.250000')`.execute(
      db,
    );
    // Stored out of time order: the reader must order by time, as the Python ADK does.
    await sql`insert into events values ('e-2', 'weather', 'alice', 'py-1', 'inv-1', '2026-01-15 09:30:02.250000',
      ${pythonEvent('e-2', 1768469402.25, { content: { role: 'model', parts: [{ text: 'Sunny.' }] }, actions: { state_delta: { last_city: 'Paris' }, artifact_delta: {} } })}::jsonb)`.execute(
      db,
    );
    await sql`insert into events values ('e-1', 'weather', 'alice', 'py-1', 'inv-1', '2026-01-15 09:30:01.123456',
      ${pythonEvent('e-1', 1768469401.123456, { author: 'user', content: { role: 'user', parts: [{ text: 'Weather in Paris?' }] } })}::jsonb)`.execute(
      db,
    );
  } finally {
    await db.destroy();
  }
  return schema;
}

async function readUnder(timeZone: string) {
  const schema = await pythonSchema();
  const { stdout } = await run(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', reader, schema],
    { env: { ...process.env, TZ: timeZone } },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    timeZone: string;
    offsetMinutes: number;
    read: { lastUpdateTime: number; events: Array<[string, number]>; state: object };
    after: { lastUpdateTime: number; events: Array<[string, number]>; state: object };
    written: { event_time: string; update_time: string; user_time: string };
    eventColumns: string[];
  };
}

describe.skipIf(!pgAvailable)('tables written by the Python ADK on PostgreSQL', () => {
  it('reads and writes them the same whatever the process time zone, without altering them', async () => {
    const [utc, newYork] = await Promise.all([readUnder('UTC'), readUnder('America/New_York')]);
    // The zones really took effect in the child processes.
    expect([utc.timeZone, utc.offsetMinutes]).toEqual(['UTC', 0]);
    expect([newYork.timeZone, newYork.offsetMinutes]).toEqual(['America/New_York', 300]);

    for (const seen of [utc, newYork]) {
      expect(seen.read).toEqual({
        lastUpdateTime: Date.UTC(2026, 0, 15, 9, 30, 2, 250),
        // Time order; event_data seconds recognised and turned into milliseconds.
        events: [
          ['e-1', 1768469401123.456],
          ['e-2', 1768469402250],
        ],
        state: { last_city: 'Paris', 'app:units': 'metric', 'user:home': 'Lyon' },
      });
      expect(seen.after.events.map(([id]) => id)).toEqual(['e-1', 'e-2', 'e-3']);
      expect(seen.after.state).toMatchObject({ 'user:home': 'Nice' });
      // Written as UTC wall time, as the Python ADK writes its own rows.
      expect(seen.written.event_time).toBe('2026-01-15 09:31:00.5');
      expect(
        Math.abs(Date.parse(`${seen.written.update_time}Z`) - seen.after.lastUpdateTime),
      ).toBeLessThan(1);
      expect(Math.abs(Date.parse(`${seen.written.user_time}Z`) - Date.now())).toBeLessThan(60_000);
      // No column added to their events table.
      expect(seen.eventColumns).toEqual([
        'app_name',
        'event_data',
        'id',
        'invocation_id',
        'session_id',
        'timestamp',
        'user_id',
      ]);
    }
    expect(newYork.read).toEqual(utc.read);
    expect(newYork.written.event_time).toBe(utc.written.event_time);
  });

  it('refuses tables it cannot use with SchemaVersionError, changing nothing', async () => {
    const schema = postgresSchemaName('bad');
    schemas.push(schema);
    await createPostgresSchema(schema);
    const db = postgresKysely(schema, { max: 1 });
    try {
      for (const statement of PYTHON_V1_DDL) await sql.raw(statement).execute(db);
      await sql`insert into adk_internal_metadata values ('schema_version', '1')`.execute(db);
      // An older layout: event_data kept as text.
      await sql`alter table events alter column event_data type text`.execute(db);
      const service = await SqlSessionService.fromUrl(
        (await import('@adk/test-databases')).POSTGRES_URL,
        { schema, autoMigrate: true },
      );
      try {
        const error = await service
          .getSession({ appName: 'weather', userId: 'alice', sessionId: 'x' })
          .catch((thrown: unknown) => thrown);
        expect(SchemaVersionError.isInstance(error)).toBe(true);
        expect((error as Error).message).toContain('events.event_data is text, not jsonb');
        // Refused before migrating: no bookkeeping table of ours appeared.
        const tables = await sql<{ name: string }>`
          select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(
          db,
        );
        expect(tables.rows.map((row) => row.name)).not.toContain('adk_session_migration');
      } finally {
        await service.close();
      }
    } finally {
      await db.destroy();
    }
  });
});
