import type { SessionDb } from './dialect-ops';

/** Sessions joined with their app and user state rows (one query, no N+1). */
export function selectSessionsWithScopes(db: SessionDb) {
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
      's.update_time as update_time',
      'a.state as app_state',
      'u.state as user_state',
    ]);
}
