import { decodeJsonColumn, encodeJsonColumn, epochMillis, withSqliteWriteLock } from '@adk/sql-kit';
import { sql } from 'kysely';

import type { DialectOps, ScopeKey, SessionDb, SessionKey } from './dialect-ops';
import { ensureScopeRow, selectSessionsWithScopes } from './session-query';

function parseObject(raw: unknown): Record<string, unknown> {
  const value = decodeJsonColumn(raw);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function whereSession(key: SessionKey) {
  return { appName: key.appName, userId: key.userId, sessionId: key.sessionId };
}

/**
 * SQLite: JSON as text, times as INTEGER epoch ms, append order from `rowid`. Writers take the
 * database write lock up front (`BEGIN IMMEDIATE`, waiting up to the connection's busy timeout),
 * so every write transaction, including its reads, runs alone: the stale check and the shallow
 * merges are read-modify-write without races.
 */
export const sqliteOps: DialectOps = {
  kind: 'sqlite',
  encodeJson: encodeJsonColumn,
  decodeJson: decodeJsonColumn,
  encodeTime: (ms) => ms,
  // Also reads text written by SQLAlchemy (naive UTC, `YYYY-MM-DD HH:MM:SS.ffffff`) or ISO-8601.
  decodeTime: epochMillis,
  readTime: (ref) => sql.ref(ref),
  ordered: true,

  write: (db, work) => withSqliteWriteLock(db, (locked) => work(locked as SessionDb)),

  async appendEvent(db, plan) {
    const { key, delta } = plan;
    const k = whereSession(key);
    return sqliteOps.write(db, async (trx) => {
      const row = await trx
        .selectFrom('sessions')
        .select(['state', 'update_time'])
        .where('app_name', '=', k.appName)
        .where('user_id', '=', k.userId)
        .where('id', '=', k.sessionId)
        .executeTakeFirst();
      if (!row) return { outcome: 'missing' };
      if (epochMillis(row.update_time) !== plan.expected) return { outcome: 'stale' };
      const inserted = await trx
        .insertInto('events')
        .values({
          id: plan.event.id,
          app_name: k.appName,
          user_id: k.userId,
          session_id: k.sessionId,
          invocation_id: plan.event.invocationId,
          timestamp: plan.event.timestamp,
          event_data: plan.event.data,
        })
        .onConflict((conflict) => conflict.doNothing())
        .returning(sql<number>`rowid`.as('order'))
        .executeTakeFirst();
      if (!inserted) return { outcome: 'duplicate-event' };
      const changes: { update_time: number; state?: string } = { update_time: plan.next };
      if (Object.keys(delta.session).length > 0) {
        changes.state = encodeJsonColumn({ ...parseObject(row.state), ...delta.session });
      }
      await trx
        .updateTable('sessions')
        .set(changes)
        .where('app_name', '=', k.appName)
        .where('user_id', '=', k.userId)
        .where('id', '=', k.sessionId)
        .execute();
      if (Object.keys(delta.app).length > 0) {
        await sqliteOps.mergeScope(
          trx,
          { table: 'app_states', appName: k.appName },
          delta.app,
          plan.next,
        );
      }
      if (Object.keys(delta.user).length > 0) {
        await sqliteOps.mergeScope(
          trx,
          { table: 'user_states', appName: k.appName, userId: k.userId },
          delta.user,
          plan.next,
        );
      }
      return { outcome: 'appended', order: Number(inserted.order) };
    });
  },

  async loadSession(db, key, window, upTo) {
    // A deferred transaction: every read sees one snapshot, even with writers in other processes.
    return db.transaction().execute(async (trx) => {
      const row = await selectSessionsWithScopes(trx, sqliteOps)
        .select('s.create_time as create_time')
        .where('s.app_name', '=', key.appName)
        .where('s.user_id', '=', key.userId)
        .where('s.id', '=', key.sessionId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { create_time: created, ...scopes } = row;
      const loaded = { row: scopes, createTime: epochMillis(created), anchored: true };
      if (window.numRecentEvents === 0) return { ...loaded, events: [] };
      const inSession = () =>
        trx
          .selectFrom('events')
          .where('app_name', '=', key.appName)
          .where('user_id', '=', key.userId)
          .where('session_id', '=', key.sessionId);
      if (upTo?.eventId !== undefined) {
        const anchor = await inSession()
          .select('id')
          .where(sql<number>`rowid`, '=', upTo.order)
          .where('id', '=', upTo.eventId)
          .executeTakeFirst();
        if (!anchor) return { ...loaded, anchored: false, events: [] };
      }
      let query = inSession().select([
        'id',
        'invocation_id',
        'timestamp',
        'event_data',
        sql<number>`rowid`.as('order'),
      ]);
      if (window.afterTimestamp !== undefined)
        query = query.where('timestamp', '>=', window.afterTimestamp);
      if (upTo !== undefined) query = query.where(sql<number>`rowid`, '>', upTo.order);
      const recent = window.numRecentEvents !== undefined;
      const events = await query
        .orderBy(sql`rowid`, recent ? 'desc' : 'asc')
        .$if(recent, (q) => q.limit(window.numRecentEvents!))
        .execute();
      if (recent) events.reverse();
      return { ...loaded, events };
    });
  },

  async mergeScope(trx, scope, delta, now) {
    if (Object.keys(delta).length === 0) return ensureScopeRow(trx, scope, now);
    const row = await scopeQuery(trx, scope).executeTakeFirst();
    const encoded = encodeJsonColumn({ ...(row ? parseObject(row.state) : {}), ...delta });
    if (scope.table === 'app_states') {
      await trx
        .insertInto('app_states')
        .values({ app_name: scope.appName, state: encoded, update_time: now })
        .onConflict((conflict) =>
          conflict.column('app_name').doUpdateSet({ state: encoded, update_time: now }),
        )
        .execute();
    } else {
      await trx
        .insertInto('user_states')
        .values({
          app_name: scope.appName,
          user_id: scope.userId,
          state: encoded,
          update_time: now,
        })
        .onConflict((conflict) =>
          conflict
            .columns(['app_name', 'user_id'])
            .doUpdateSet({ state: encoded, update_time: now }),
        )
        .execute();
    }
  },
};

function scopeQuery(trx: SessionDb, scope: ScopeKey) {
  return scope.table === 'app_states'
    ? trx.selectFrom('app_states').select('state').where('app_name', '=', scope.appName)
    : trx
        .selectFrom('user_states')
        .select('state')
        .where('app_name', '=', scope.appName)
        .where('user_id', '=', scope.userId);
}
