import type { DialectOps, ScopeKey, SessionDb } from './dialect-ops';

/** Sessions joined with their app and user state rows (one query, no N+1). */
export function selectSessionsWithScopes(db: SessionDb, ops: Pick<DialectOps, 'readTime'>) {
  return db
    .selectFrom('sessions as s')
    .leftJoin('app_states as a', 'a.app_name', 's.app_name')
    .leftJoin('user_states as u', (join) =>
      join.onRef('u.app_name', '=', 's.app_name').onRef('u.user_id', '=', 's.user_id'),
    )
    .select([
      's.id as id',
      's.app_name as app_name',
      's.user_id as user_id',
      's.state as session_state',
      ops.readTime('s.update_time').as('update_time'),
      'a.state as app_state',
      'u.state as user_state',
    ]);
}

/**
 * Create a shared-state row with an empty state when it is missing, without touching (or locking)
 * an existing one: what `createSession` needs when its initial state has no key for that scope.
 */
export async function ensureScopeRow(
  db: SessionDb,
  scope: ScopeKey,
  updateTime: unknown,
): Promise<void> {
  if (scope.table === 'app_states') {
    await db
      .insertInto('app_states')
      .values({ app_name: scope.appName, state: '{}', update_time: updateTime })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  } else {
    await db
      .insertInto('user_states')
      .values({
        app_name: scope.appName,
        user_id: scope.userId,
        state: '{}',
        update_time: updateTime,
      })
      .onConflict((conflict) => conflict.doNothing())
      .execute();
  }
}
