import {
  inSchema,
  qualifiedTable,
  type SqlMigration as Migration,
  type SqlMigrationProvider as MigrationProvider,
} from '@adk/sql-kit';
import { sql, type Kysely } from 'kysely';

import type { DialectKind } from '../dialect';
import { createEventsIndex, sqliteEventsTable } from './events-index';

/** `name` as a quoted SQL identifier. */
const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Types per dialect, matching the DDL `@google/adk` 2.0 creates (so it leaves the tables alone). */
function columnTypes(kind: DialectKind) {
  return kind === 'postgres'
    ? { key: 'varchar(191)', long: 'varchar(255)', json: 'jsonb', time: 'timestamptz' }
    : { key: 'text', long: 'text', json: 'json', time: 'datetime' };
}

/**
 * 001: the four session tables and the metadata table (created only when missing, so a database
 * already written by the Python ADK or `@google/adk` is adopted as it is), an insertion sequence
 * for events on PostgreSQL (SQLite has `rowid`) and the index that serves ordered reads of one
 * session, both only on an events table this migration created (another ADK's is never altered,
 * on either database),
 * and `schema_version = '1'`.
 */
function schemaV1(kind: DialectKind, schema: string | undefined): Migration {
  const t = columnTypes(kind);
  const table = (name: string) => qualifiedTable(name, schema);
  return {
    async up(root: Kysely<unknown>): Promise<void> {
      const db = inSchema(root, schema);
      await db.schema
        .createTable('adk_internal_metadata')
        .ifNotExists()
        .addColumn('key', sql.raw(t.long), (c) => c.primaryKey().notNull())
        .addColumn('value', sql.raw(t.long), (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('app_states')
        .ifNotExists()
        .addColumn('app_name', sql.raw(t.key), (c) => c.primaryKey().notNull())
        .addColumn('state', sql.raw(t.json), (c) => c.notNull())
        .addColumn('update_time', sql.raw(t.time), (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('user_states')
        .ifNotExists()
        .addColumn('app_name', sql.raw(t.key), (c) => c.notNull())
        .addColumn('user_id', sql.raw(t.key), (c) => c.notNull())
        .addColumn('state', sql.raw(t.json), (c) => c.notNull())
        .addColumn('update_time', sql.raw(t.time), (c) => c.notNull())
        .addPrimaryKeyConstraint('user_states_pkey', ['app_name', 'user_id'])
        .execute();
      await db.schema
        .createTable('sessions')
        .ifNotExists()
        .addColumn('id', sql.raw(t.key), (c) => c.notNull())
        .addColumn('app_name', sql.raw(t.key), (c) => c.notNull())
        .addColumn('user_id', sql.raw(t.key), (c) => c.notNull())
        .addColumn('state', sql.raw(t.json), (c) => c.notNull())
        .addColumn('create_time', sql.raw(t.time), (c) => c.notNull())
        .addColumn('update_time', sql.raw(t.time), (c) => c.notNull())
        .addPrimaryKeyConstraint('sessions_pkey', ['id', 'app_name', 'user_id'])
        .execute();
      // An events table another ADK created is used as it is: no column or index is added to it.
      const foreignEvents =
        kind === 'postgres'
          ? (
              await sql<{ found: string | null }>`select to_regclass(${
                schema === undefined ? 'events' : `${quoteIdent(schema)}.events`
              })::text as found`.execute(db)
            ).rows[0]?.found != null
          : (await sqliteEventsTable(root)) === 'foreign';
      await db.schema
        .createTable('events')
        .ifNotExists()
        .addColumn('id', sql.raw(t.key), (c) => c.notNull())
        .addColumn('app_name', sql.raw(t.key), (c) => c.notNull())
        .addColumn('user_id', sql.raw(t.key), (c) => c.notNull())
        .addColumn('session_id', sql.raw(t.key), (c) => c.notNull())
        .addColumn('invocation_id', sql.raw(t.long), (c) => c.notNull())
        .addColumn('timestamp', sql.raw(t.time), (c) => c.notNull())
        .addColumn('event_data', sql.raw(t.json), (c) => c.notNull())
        .addPrimaryKeyConstraint('events_pkey', ['id', 'app_name', 'user_id', 'session_id'])
        .execute();
      if (!foreignEvents) {
        // Read in time order on another ADK's table (see postgresOps); in append order on ours.
        if (kind === 'postgres') {
          await sql`alter table ${table('events')} add column if not exists seq bigserial`.execute(
            db,
          );
        }
        await createEventsIndex(root, { dialect: kind, schema });
      }
      await sql`insert into ${table('adk_internal_metadata')} (key, value) values ('schema_version', '1') on conflict do nothing`.execute(
        db,
      );
    },
  };
}

/** The migrations of `@adk/session-sql`, in order, shipped in code. */
export function sessionMigrations(kind: DialectKind, schema?: string): MigrationProvider {
  return {
    async getMigrations(): Promise<Record<string, Migration>> {
      return { '001_adk_session_schema_v1': schemaV1(kind, schema) };
    },
  };
}
