import { sql } from 'kysely';

import type { DialectOps } from './dialect-ops';

function toMs(raw: unknown): number {
  if (raw instanceof Date) return raw.getTime();
  if (typeof raw === 'string') return Date.parse(raw);
  if (typeof raw === 'number') return raw;
  return Number.NaN;
}

/**
 * PostgreSQL: `jsonb` and `timestamptz` (millisecond precision). The stale check and the session
 * update are one conditional `UPDATE` (which takes the row lock, so appends to one session are
 * serialised); shared state is merged in SQL with `jsonb ||` inside an upsert, never read into
 * the process, so concurrent writers of other sessions cannot lose each other's keys.
 */
export const postgresOps: DialectOps = {
  kind: 'postgres',
  sequence: sql`seq`,
  // Always send text: pg would turn a JS array into a Postgres array.
  encodeJson: (value) => JSON.stringify(value),
  decodeJson: (raw) => (typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw),
  encodeTime: (ms) => new Date(ms),
  decodeTime: toMs,

  async write(db, work) {
    return db.transaction().execute(work);
  },

  async read(db, work) {
    return db.transaction().setIsolationLevel('repeatable read').execute(work);
  },

  async advanceSession(trx, key, expected, next, delta) {
    const hasDelta = Object.keys(delta).length > 0;
    const result = await trx
      .updateTable('sessions')
      .set({
        update_time: new Date(next),
        ...(hasDelta ? { state: sql`state || ${JSON.stringify(delta)}::jsonb` } : {}),
      })
      .where('app_name', '=', key.appName)
      .where('user_id', '=', key.userId)
      .where('id', '=', key.sessionId)
      // Markers written by other ADKs may carry microseconds; ours are whole milliseconds.
      .where(sql`date_trunc('milliseconds', update_time)`, '=', new Date(expected))
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },

  async mergeScope(trx, scope, delta, now) {
    const state = JSON.stringify(delta);
    const time = new Date(now);
    if (scope.table === 'app_states') {
      await trx
        .insertInto('app_states')
        .values({ app_name: scope.appName, state, update_time: time })
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
        .values({ app_name: scope.appName, user_id: scope.userId, state, update_time: time })
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
