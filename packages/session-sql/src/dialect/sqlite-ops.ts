import { sql } from 'kysely';

import type { DialectOps, ScopeKey, SessionDb } from './dialect-ops';

function parseTime(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'bigint') return Number(raw);
  if (typeof raw === 'string') {
    const numeric = Number(raw);
    if (raw.trim() !== '' && Number.isFinite(numeric)) return numeric;
    // Text written by SQLAlchemy (naive UTC, `YYYY-MM-DD HH:MM:SS.ffffff`) or ISO-8601.
    const iso = raw.includes('T') ? raw : raw.replace(' ', 'T');
    return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(iso) ? iso : `${iso}Z`);
  }
  return Number.NaN;
}

function scopeQuery(trx: SessionDb, scope: ScopeKey) {
  return scope.table === 'app_states'
    ? trx.selectFrom('app_states').select('state').where('app_name', '=', scope.appName)
    : trx
        .selectFrom('user_states')
        .select('state')
        .where('app_name', '=', scope.appName)
        .where('user_id', '=', scope.userId);
}

/**
 * SQLite: JSON as text, times as INTEGER epoch ms. Writers take the database write lock up front
 * (`BEGIN IMMEDIATE`, waiting up to the connection's busy timeout), so every write transaction,
 * including its reads, runs alone: the shallow merges are read-modify-write without races.
 */
export const sqliteOps: DialectOps = {
  kind: 'sqlite',
  sequence: sql`rowid`,
  encodeJson: (value) => JSON.stringify(value),
  decodeJson: (raw) => (typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw),
  encodeTime: (ms) => ms,
  decodeTime: parseTime,

  async write(db, work) {
    return db.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection);
        throw error;
      }
    });
  },

  async read(db, work) {
    return db.transaction().execute(work);
  },

  async advanceSession(trx, key, expected, next, delta) {
    const row = await trx
      .selectFrom('sessions')
      .select(['state', 'update_time'])
      .where('app_name', '=', key.appName)
      .where('user_id', '=', key.userId)
      .where('id', '=', key.sessionId)
      .executeTakeFirst();
    if (!row || parseTime(row.update_time) !== expected) return false;
    const changes: { update_time: number; state?: string } = { update_time: next };
    if (Object.keys(delta).length > 0) {
      const state = sqliteOps.decodeJson(row.state) as Record<string, unknown>;
      changes.state = JSON.stringify({ ...state, ...delta });
    }
    await trx
      .updateTable('sessions')
      .set(changes)
      .where('app_name', '=', key.appName)
      .where('user_id', '=', key.userId)
      .where('id', '=', key.sessionId)
      .execute();
    return true;
  },

  async mergeScope(trx, scope, delta, now) {
    const row = await scopeQuery(trx, scope).executeTakeFirst();
    const state = row ? (sqliteOps.decodeJson(row.state) as Record<string, unknown>) : {};
    const encoded = JSON.stringify({ ...state, ...delta });
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
