import { isUniqueViolation, qualifiedTable, type SqlTablesLocation } from '@adk/sql-kit';
import { sql, type Kysely } from 'kysely';

/** The index serving ordered reads of one session, on an `events` table this package created. */
export const EVENTS_INDEX = 'adk_events_session_order';

/**
 * How the `events` table this package creates on SQLite is written in `sqlite_master`: Kysely
 * names its primary key. The DDL of the Python ADK (SQLAlchemy) and of `@google/adk` (MikroORM)
 * does not, so an `events` table with this clause is this package's.
 */
const OWN_SQLITE_EVENTS_KEY =
  'constraint "events_pkey" primary key ("id", "app_name", "user_id", "session_id")';

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** `create index if not exists` of {@link EVENTS_INDEX}, per dialect. */
export function createEventsIndex(db: Kysely<unknown>, location: SqlTablesLocation) {
  const events = qualifiedTable('events', location.schema);
  // Every SQLite index ends with the rowid, so the SQLite one also serves ORDER BY rowid.
  const columns =
    location.dialect === 'postgres'
      ? sql`(app_name, user_id, session_id, seq)`
      : sql`(app_name, user_id, session_id)`;
  return sql`create index if not exists ${sql.raw(EVENTS_INDEX)} on ${events} ${columns}`.execute(
    db,
  );
}

/**
 * Whether the SQLite `events` table exists and, if so, whether this package created it (see
 * {@link OWN_SQLITE_EVENTS_KEY}).
 */
export async function sqliteEventsTable(
  db: Kysely<unknown>,
): Promise<'missing' | 'own' | 'foreign'> {
  const { rows } = await sql<{ sql: string | null }>`
    select sql from sqlite_master where type = 'table' and name = 'events'`.execute(db);
  const ddl = rows[0]?.sql;
  if (ddl === undefined) return 'missing';
  return ddl?.toLowerCase().includes(OWN_SQLITE_EVENTS_KEY) ? 'own' : 'foreign';
}

async function eventsIndexExists(
  db: Kysely<unknown>,
  location: SqlTablesLocation,
): Promise<boolean> {
  if (location.dialect === 'sqlite') {
    const { rows } = await sql`select 1 from sqlite_master
      where type = 'index' and name = ${EVENTS_INDEX} and tbl_name = 'events'`.execute(db);
    return rows.length > 0;
  }
  const name =
    location.schema === undefined ? EVENTS_INDEX : `${quoteIdent(location.schema)}.${EVENTS_INDEX}`;
  const { rows } = await sql<{
    found: string | null;
  }>`select to_regclass(${name})::text as found`.execute(db);
  return rows[0]?.found != null;
}

/**
 * Keep {@link EVENTS_INDEX} where it belongs, at every start of the service: on an `events` table
 * this package created (`ownsEvents`), create it again when it is missing (`@google/adk` drops
 * indexes it does not know each time it opens a database); on another ADK's table, never add it,
 * and when `migrating`, remove the one an earlier version of this package added to a SQLite table.
 */
export async function reconcileEventsIndex(
  db: Kysely<unknown>,
  location: SqlTablesLocation,
  options: { ownsEvents: boolean; migrating: boolean },
): Promise<void> {
  const exists = await eventsIndexExists(db, location);
  if (options.ownsEvents && !exists) {
    await createEventsIndex(db, location).catch((error: unknown) => {
      // Another process starting at the same moment created it first (PostgreSQL reports the
      // race on its catalog as a unique violation, or as "already exists").
      const code = (error as { code?: unknown } | null)?.code;
      if (!isUniqueViolation(error) && code !== '42P07') throw error;
    });
  }
  if (!options.ownsEvents && exists && options.migrating && location.dialect === 'sqlite')
    await sql`drop index if exists ${sql.raw(EVENTS_INDEX)}`.execute(db);
}
