import { randomUUID } from 'node:crypto';

import { createEvent } from '@adk/core';
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

import { SqlSessionService } from '../src';

/** A new empty database: a SQLite file or a PostgreSQL schema. */
interface Database {
  service(options?: { autoMigrate?: boolean }): SqlSessionService;
  raw(query: string): Promise<Record<string, unknown>[]>;
  /** The `events` table as the database describes it: its columns and indexes. */
  describeEvents(): Promise<unknown>;
}

const INDEX = 'adk_events_session_order';
const temp = temporaryDirectory('adk-session-sql-index-');
const schemas: string[] = [];
const opened: Kysely<unknown>[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.destroy()));
  temp.remove();
  for (const schema of schemas) await dropPostgresSchema(schema);
});

function sqliteDatabase(): Database {
  const path = temp.file(`${randomUUID()}.db`);
  const raw = sqliteKysely(path, { wal: true });
  opened.push(raw);
  const run = async (query: string) =>
    (await sql.raw<Record<string, unknown>>(query).execute(raw)).rows;
  return {
    service: (options = {}) => {
      const db = sqliteKysely(path, { wal: true });
      opened.push(db);
      return new SqlSessionService({ db, ...options });
    },
    raw: run,
    describeEvents: () =>
      run(`select type, name, sql from sqlite_master where tbl_name = 'events' order by name`),
  };
}

function postgresDatabase(): Database {
  const schema = postgresSchemaName();
  schemas.push(schema);
  const raw = postgresKysely(schema, { max: 2 });
  opened.push(raw);
  const run = async (query: string) => {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(raw);
    return (await sql.raw<Record<string, unknown>>(query).execute(raw)).rows;
  };
  return {
    service: (options = {}) => {
      const db = postgresKysely('public', { max: 2 });
      opened.push(db);
      return new SqlSessionService({ db, schema, ...options });
    },
    raw: run,
    describeEvents: async () => ({
      columns: await run(`select column_name, data_type from information_schema.columns
        where table_schema = '${schema}' and table_name = 'events' order by column_name`),
      indexes: await run(`select indexname, indexdef from pg_indexes
        where schemaname = '${schema}' and tablename = 'events' order by indexname`),
    }),
  };
}

const kinds = [
  {
    label: 'SQLite file',
    available: true,
    fresh: sqliteDatabase,
    // @google/adk 2.0's DDL (see /work/shared/reference/adk-js-sql-schema.md).
    foreignEvents:
      'create table events (id text not null, app_name text not null, user_id text not null, session_id text not null, invocation_id text not null, timestamp datetime not null, event_data json not null, primary key (id, app_name, user_id, session_id))',
  },
  {
    label: 'PostgreSQL',
    available: (await postgresUnavailable()) === undefined,
    fresh: postgresDatabase,
    foreignEvents:
      'create table events (id varchar(191) not null, app_name varchar(191) not null, user_id varchar(191) not null, session_id varchar(191) not null, invocation_id varchar(255) not null, timestamp timestamptz not null, event_data jsonb not null, primary key (id, app_name, user_id, session_id))',
  },
];

/** Use the service as an app would: create, append, read. */
async function use(service: SqlSessionService): Promise<void> {
  const session = await service.createSession({ appName: 'a', userId: 'u' });
  await service.appendEvent({ session, event: createEvent({ invocationId: 'i', author: 'a' }) });
  const read = await service.getSession({ appName: 'a', userId: 'u', sessionId: session.id });
  expect(read?.events).toHaveLength(1);
}

for (const kind of kinds) {
  describe.skipIf(!kind.available)(`the events index (${kind.label})`, () => {
    it('adds no column or index to an events table another ADK created', async () => {
      const database = kind.fresh();
      await database.raw(kind.foreignEvents);
      const before = await database.describeEvents();
      const service = database.service();
      await service.migrate();
      await use(service);
      await database.service({ autoMigrate: true }).listSessions({ appName: 'a' });
      expect(await database.describeEvents()).toEqual(before);
    });

    it('creates its index again at the next start once another ADK dropped it', async () => {
      const database = kind.fresh();
      await database.service().migrate();
      const own = await database.describeEvents();
      expect(JSON.stringify(own)).toContain(INDEX);
      // What @google/adk does each time it opens the database: drop indexes it does not know.
      await database.raw(`drop index ${INDEX}`);
      expect(JSON.stringify(await database.describeEvents())).not.toContain(INDEX);
      // A service that only checks the schema (no migrate) restores it on first use...
      await use(database.service());
      expect(await database.describeEvents()).toEqual(own);
      // ...and so does migrate().
      await database.raw(`drop index ${INDEX}`);
      await database.service().migrate();
      expect(await database.describeEvents()).toEqual(own);
    });
  });
}

describe('the events index (SQLite file, migrated by an earlier version)', () => {
  it("removes the index an earlier version added to another ADK's events table", async () => {
    const database = sqliteDatabase();
    await database.raw(kinds[0]!.foreignEvents);
    const theirs = await database.describeEvents();
    await database.raw(`create index ${INDEX} on events (app_name, user_id, session_id)`);
    await database.service().migrate();
    expect(await database.describeEvents()).toEqual(theirs);
  });
});
