import { decodeJsonColumn, encodeJsonColumn, epochMillis, qualifiedTable } from '@adk/sql-kit';
import { sql, type RawBuilder } from 'kysely';

import type { DialectOps, EventRow, SessionScopesRow } from './dialect-ops';
import { OWN_POSTGRES_LAYOUT, type PostgresLayout } from './postgres-layout';
import { ShapedStatements } from './prepared-statement';
import { ensureScopeRow } from './session-query';

const json = encodeJsonColumn;
const hasKeys = (value: object) => Object.keys(value).length > 0;

/**
 * PostgreSQL: `jsonb` and `timestamptz` (millisecond precision), append order from the `seq`
 * column. An append is **one statement** (atomic on its own, one round trip): it locks the session
 * row only when its marker is the expected one (`FOR UPDATE`, so appends to one session are
 * serialised and a writer that waited re-checks the marker), inserts the event, and only then
 * updates the session and merges app and user state with `jsonb ||` inside upserts. Shared state
 * is never read into the process, so writers of different sessions cannot lose each other's keys.
 *
 * Times never depend on the process's or the connection's time zone: they are sent as ISO-8601
 * text in UTC (converted to UTC wall time for a `timestamp without time zone` column, as the
 * Python ADK stores them) and read back as epoch milliseconds computed by the server
 * (`extract(epoch ...)`, which reads a zoneless timestamp as UTC). Without the `seq` column (tables
 * of another ADK, which this package never alters), events are ordered by time, then id.
 *
 * The append and the session read (the statements of every turn) are compiled once per shape (see
 * `ShapedStatements`); with `prepared`, they are sent as named prepared statements of the `pg`
 * driver: PostgreSQL parses and plans them once per connection instead of once per call.
 *
 * @param schema schema of the tables; the connection's `search_path` decides when omitted.
 * @param layout the tables' layout (see `readPostgresLayout`); this package's own by default.
 */
export function postgresOps(
  schema?: string,
  layout: PostgresLayout = OWN_POSTGRES_LAYOUT,
  prepared = false,
): DialectOps {
  const statements = new ShapedStatements(prepared);
  const table = (name: string): RawBuilder<unknown> => qualifiedTable(name, schema);
  /** `ms` as a value of the time column `column` (`table.column`). */
  const time = (column: string, ms: number): RawBuilder<unknown> =>
    timeAt(column, new Date(ms).toISOString());
  /** A time column's value given as ISO-8601 text (or its slot in a shaped statement). */
  const timeAt = (column: string, iso: unknown): RawBuilder<unknown> =>
    layout.naiveTimes.has(column)
      ? sql`(${iso}::timestamptz at time zone 'UTC')`
      : sql`${iso}::timestamptz`;
  const isoOf = (ms: number) => new Date(ms).toISOString();
  /** A time column read as epoch milliseconds (whole, as markers are compared). */
  const msOf = (ref: RawBuilder<unknown>) => sql`floor(extract(epoch from ${ref}) * 1000)::float8`;
  /** Append order: the `seq` column, or time then id on tables without it. */
  const eventOrder = layout.eventSeq ? sql`seq` : sql`row_number() over (order by timestamp, id)`;
  const ops: DialectOps = {
    kind: 'postgres',
    encodeJson: encodeJsonColumn,
    decodeJson: decodeJsonColumn,
    encodeTime: (ms, column) => time(column, ms),
    decodeTime: epochMillis,
    readTime: (ref) => msOf(sql.ref(ref)),
    ordered: layout.eventSeq,

    async write(db, work) {
      return db.transaction().execute(work);
    },

    async appendEvent(db, plan) {
      const { key, delta, event } = plan;
      const hasApp = hasKeys(delta.app);
      const hasUser = hasKeys(delta.user);
      const hasSession = hasKeys(delta.session);
      const result = await statements.execute(
        db,
        `append ${Number(hasApp)}${Number(hasUser)}${Number(hasSession)}`,
        (slot) => {
          const [appName, userId, sessionId, next] = [
            slot('appName'),
            slot('userId'),
            slot('sessionId'),
            slot('next'),
          ];
          const appCte = hasApp
            ? sql`, app as (
            insert into ${table('app_states')} as t (app_name, state, update_time)
            select ${appName}, ${slot('app')}::jsonb, ${timeAt('app_states.update_time', next)}
            where exists (select 1 from inserted)
            on conflict (app_name) do update set state = t.state || excluded.state, update_time = excluded.update_time
            returning 1)`
            : sql``;
          const userCte = hasUser
            ? sql`, usr as (
            insert into ${table('user_states')} as t (app_name, user_id, state, update_time)
            select ${appName}, ${userId}, ${slot('user')}::jsonb, ${timeAt('user_states.update_time', next)}
            where exists (select 1 from inserted)
            on conflict (app_name, user_id) do update set state = t.state || excluded.state, update_time = excluded.update_time
            returning 1)`
            : sql``;
          const sessionState = hasSession
            ? sql`, state = s.state || ${slot('session')}::jsonb`
            : sql``;
          return sql<{
            locked: string;
            inserted: string;
            present: string;
            ord: string | null;
          }>`
        with locked as (
          select 1 from ${table('sessions')}
          where app_name = ${appName} and user_id = ${userId} and id = ${sessionId}
            and date_trunc('milliseconds', update_time) = ${timeAt('sessions.update_time', slot('expected'))}
          for update
        ), inserted as (
          insert into ${table('events')} (id, app_name, user_id, session_id, invocation_id, timestamp, event_data)
          select ${slot('eventId')}, ${appName}, ${userId}, ${sessionId}, ${slot('invocationId')},
                 ${timeAt('events.timestamp', slot('timestamp'))}, ${slot('data')}::jsonb
          where exists (select 1 from locked)
          on conflict do nothing
          returning ${layout.eventSeq ? sql`seq` : sql`0`} as ord
        ), advanced as (
          update ${table('sessions')} as s set update_time = ${timeAt('sessions.update_time', next)}${sessionState}
          where app_name = ${appName} and user_id = ${userId} and id = ${sessionId}
            and exists (select 1 from inserted)
          returning 1
        )${appCte}${userCte}
        select (select count(*) from locked) as locked,
               (select count(*) from inserted) as inserted,
               (select ord from inserted) as ord,
               (select count(*) from ${table('sessions')}
                 where app_name = ${appName} and user_id = ${userId} and id = ${sessionId}) as present`;
        },
        {
          appName: key.appName,
          userId: key.userId,
          sessionId: key.sessionId,
          next: isoOf(plan.next),
          expected: isoOf(plan.expected),
          eventId: event.id,
          invocationId: event.invocationId,
          timestamp: isoOf(event.timestamp),
          data: event.data,
          app: hasApp ? json(delta.app) : undefined,
          user: hasUser ? json(delta.user) : undefined,
          session: hasSession ? json(delta.session) : undefined,
        },
      );
      const counts = result.rows[0];
      if (Number(counts?.inserted) === 1)
        return layout.eventSeq
          ? { outcome: 'appended', order: Number(counts?.ord) }
          : { outcome: 'appended' };
      if (Number(counts?.locked) === 1) return { outcome: 'duplicate-event' };
      return { outcome: Number(counts?.present) === 1 ? 'stale' : 'missing' };
    },

    async loadSession(db, key, window, upTo) {
      // One statement, so one snapshot and one round trip: the session row (kind 0) with its
      // scopes, then its windowed events (kind 1) in append order, streamed as plain rows.
      const hasAfter = window.afterTimestamp !== undefined;
      const hasSince = upTo !== undefined && layout.eventSeq;
      const hasLimit = window.numRecentEvents !== undefined;
      const noEvents = window.numRecentEvents === 0;
      // Whether the last event the reader holds is still there (1), or it held none (1).
      const checksAnchor = upTo?.eventId !== undefined && layout.eventSeq;
      const shape = [hasAfter, hasSince, hasLimit, noEvents, checksAnchor].map(Number).join('');
      const result = await statements.execute(
        db,
        `load ${shape}`,
        (slot) => {
          const [appName, userId, sessionId] = [slot('appName'), slot('userId'), slot('sessionId')];
          const after = hasAfter
            ? sql`and timestamp >= ${timeAt('events.timestamp', slot('after'))}`
            : sql``;
          const since = hasSince ? sql`and seq > ${slot('order')}` : sql``;
          const limit = hasLimit ? sql`limit ${slot('limit')}` : sql``;
          const none = noEvents ? sql`and false` : sql``;
          const anchored = checksAnchor
            ? sql`(select count(*) from ${table('events')}
              where app_name = ${appName} and user_id = ${userId} and session_id = ${sessionId}
                and seq = ${slot('order')} and id = ${slot('eventId')})`
            : sql`1`;
          return sql<{
            kind: number;
            ord: string | number | null;
            id: string;
            invocation_id: string | null;
            time: unknown;
            d1: unknown;
            d2: unknown;
            d3: unknown;
            created: unknown;
          }>`
        with s as (
          select s.id, ${msOf(sql`s.update_time`)} as update_time, ${msOf(sql`s.create_time`)} as create_time,
                 s.state as session_state, a.state as app_state, u.state as user_state
          from ${table('sessions')} s
          left join ${table('app_states')} a on a.app_name = s.app_name
          left join ${table('user_states')} u on u.app_name = s.app_name and u.user_id = s.user_id
          where s.app_name = ${appName} and s.user_id = ${userId} and s.id = ${sessionId}
        ), e as (
          select id, invocation_id, (extract(epoch from timestamp) * 1000)::float8 as timestamp,
                 event_data, ${eventOrder} as seq
          from ${table('events')}
          where app_name = ${appName} and user_id = ${userId} and session_id = ${sessionId}
            ${after} ${since} ${none}
          order by seq desc ${limit}
        )
        select 0 as kind, ${anchored}::bigint as ord, s.id, null::varchar as invocation_id, s.update_time as time,
               s.session_state as d1, s.app_state as d2, s.user_state as d3, s.create_time as created
        from s
        union all
        select 1, e.seq, e.id, e.invocation_id, e.timestamp, e.event_data, null, null, null
        from e where exists (select 1 from s)
        order by kind, ord`;
        },
        {
          appName: key.appName,
          userId: key.userId,
          sessionId: key.sessionId,
          after: hasAfter ? isoOf(window.afterTimestamp!) : undefined,
          order: upTo?.order,
          eventId: upTo?.eventId,
          limit: window.numRecentEvents,
        },
      );
      const [first, ...rest] = result.rows;
      if (!first || first.kind !== 0) return undefined;
      const row: SessionScopesRow = {
        id: first.id,
        app_name: key.appName,
        user_id: key.userId,
        session_state: first.d1,
        update_time: first.time,
        app_state: first.d2,
        user_state: first.d3,
      };
      const events: EventRow[] = rest.map((event) => ({
        id: event.id,
        invocation_id: event.invocation_id ?? '',
        timestamp: event.time,
        event_data: event.d1,
        order: Number(event.ord),
      }));
      return {
        row,
        events,
        createTime: epochMillis(first.created),
        anchored: Number(first.ord) > 0,
      };
    },

    async mergeScope(trx, scope, delta, now) {
      const at = time(`${scope.table}.update_time`, now);
      if (Object.keys(delta).length === 0) return ensureScopeRow(trx, scope, at);
      const state = json(delta);
      if (scope.table === 'app_states') {
        await trx
          .insertInto('app_states')
          .values({ app_name: scope.appName, state, update_time: at })
          .onConflict((conflict) =>
            conflict.column('app_name').doUpdateSet({
              state: sql`app_states.state || excluded.state`,
              update_time: sql`excluded.update_time`,
            }),
          )
          .execute();
      } else {
        await trx
          .insertInto('user_states')
          .values({ app_name: scope.appName, user_id: scope.userId, state, update_time: at })
          .onConflict((conflict) =>
            conflict.columns(['app_name', 'user_id']).doUpdateSet({
              state: sql`user_states.state || excluded.state`,
              update_time: sql`excluded.update_time`,
            }),
          )
          .execute();
      }
    },
  };
  return ops;
}
