import { sql } from 'kysely';

import { SchemaVersionError } from '../errors';
import { SCHEMA_VERSION } from '../schema/tables';
import type { SessionDb } from './dialect-ops';

/**
 * How the session tables of one PostgreSQL database are laid out, where other ADKs differ: the
 * Python ADK stores times as `timestamp without time zone` (UTC wall time) and neither it nor
 * `@google/adk` has this package's `events.seq` ordering column.
 */
export interface PostgresLayout {
  /** Time columns (`table.column`) of type `timestamp without time zone`, holding UTC. */
  readonly naiveTimes: ReadonlySet<string>;
  /** Whether `events` has the `seq` column (append order); without it, events go by time. */
  readonly eventSeq: boolean;
}

/** The layout this package's migration creates. */
export const OWN_POSTGRES_LAYOUT: PostgresLayout = { naiveTimes: new Set(), eventSeq: true };

const REQUIRED: Record<string, Record<string, 'key' | 'json' | 'time'>> = {
  sessions: {
    id: 'key',
    app_name: 'key',
    user_id: 'key',
    state: 'json',
    create_time: 'time',
    update_time: 'time',
  },
  events: {
    id: 'key',
    app_name: 'key',
    user_id: 'key',
    session_id: 'key',
    invocation_id: 'key',
    timestamp: 'time',
    event_data: 'json',
  },
  app_states: { app_name: 'key', state: 'json', update_time: 'time' },
  user_states: { app_name: 'key', user_id: 'key', state: 'json', update_time: 'time' },
};

const TIME_TYPES = new Set(['timestamp with time zone', 'timestamp without time zone']);
const KEY_TYPES = new Set(['character varying', 'text', 'character']);

/** What {@link readPostgresLayout} found. */
export interface PostgresLayoutReport {
  layout: PostgresLayout;
  /** Session tables that do not exist. */
  missingTables: string[];
  /** Why an existing table cannot be used (a missing column, a column of another type). */
  problems: string[];
}

/**
 * Read the session tables' columns from `information_schema` (one query) in `schema`, or where the
 * connection's `search_path` finds each table.
 */
export async function readPostgresLayout(
  db: SessionDb,
  schema: string | undefined,
): Promise<PostgresLayoutReport> {
  // Without a schema, each table is the one the connection's search_path finds (as the queries do).
  const target =
    schema === undefined
      ? sql`(select n.nspname from pg_catalog.pg_class k
             join pg_catalog.pg_namespace n on n.oid = k.relnamespace
             where k.oid = to_regclass(quote_ident(c.table_name)))`
      : sql`${schema}`;
  const { rows } = await sql<{ table_name: string; column_name: string; data_type: string }>`
    select c.table_name, c.column_name, c.data_type from information_schema.columns c
    where c.table_name in ('sessions', 'events', 'app_states', 'user_states')
      and c.table_schema = ${target}`.execute(db);
  const columns = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const table = columns.get(row.table_name) ?? new Map<string, string>();
    table.set(row.column_name, row.data_type);
    columns.set(row.table_name, table);
  }
  const naiveTimes = new Set<string>();
  const missingTables: string[] = [];
  const problems: string[] = [];
  for (const [table, required] of Object.entries(REQUIRED)) {
    const found = columns.get(table);
    if (found === undefined) {
      missingTables.push(table);
      continue;
    }
    for (const [column, kind] of Object.entries(required)) {
      const type = found.get(column);
      if (type === undefined) problems.push(`${table} has no column ${column}`);
      else if (kind === 'json' && type !== 'jsonb')
        problems.push(`${table}.${column} is ${type}, not jsonb`);
      else if (kind === 'time' && !TIME_TYPES.has(type))
        problems.push(`${table}.${column} is ${type}, not a timestamp`);
      else if (kind === 'key' && !KEY_TYPES.has(type))
        problems.push(`${table}.${column} is ${type}, not text`);
      else if (type === 'timestamp without time zone') naiveTimes.add(`${table}.${column}`);
    }
  }
  return {
    layout: { naiveTimes, eventSeq: columns.get('events')?.has('seq') ?? true },
    missingTables,
    problems,
  };
}

/**
 * Throw `SchemaVersionError` naming every problem of `report` (and, with `requireAll`, every
 * missing table): session tables this package cannot read or write.
 */
export function refuseUnusableLayout(report: PostgresLayoutReport, requireAll: boolean): void {
  const problems = [
    ...(requireAll ? report.missingTables.map((table) => `there is no ${table} table`) : []),
    ...report.problems,
  ];
  if (problems.length === 0) return;
  throw new SchemaVersionError({
    found: undefined,
    supported: SCHEMA_VERSION,
    message: `The session tables in this database cannot be used: ${problems.join('; ')}. Nothing was changed.`,
  });
}
