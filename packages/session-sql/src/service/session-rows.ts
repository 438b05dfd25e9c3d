import {
  deepFreeze,
  mergeStateViews,
  type Event,
  type GetSessionRequest,
  type Session,
} from '@adk/core';

import { decodeEventRow } from '../codec';
import type { DialectOps, SessionDb, SessionKey } from '../dialect';
import { CorruptEventError } from '../errors';

/** Sessions joined with their app and user state rows (one query, no N+1). */
export function selectSessionsWithScopes(trx: SessionDb) {
  return trx
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

/** A row of {@link selectSessionsWithScopes}. */
export interface SessionScopesRow {
  id: string;
  app_name: string;
  user_id: string;
  session_state: unknown;
  update_time: unknown;
  app_state: unknown;
  user_state: unknown;
}

function stateObject(ops: DialectOps, raw: unknown): Record<string, unknown> {
  if (raw === null || raw === undefined) return {};
  const decoded = ops.decodeJson(raw);
  return decoded !== null && typeof decoded === 'object' && !Array.isArray(decoded)
    ? (decoded as Record<string, unknown>)
    : {};
}

/** The caller-owned Session for a row (fresh objects decoded from the database). */
export function sessionFromRow(ops: DialectOps, row: SessionScopesRow, events: Event[]): Session {
  return {
    id: row.id,
    appName: row.app_name,
    userId: row.user_id,
    state: mergeStateViews({
      session: stateObject(ops, row.session_state),
      app: stateObject(ops, row.app_state),
      user: stateObject(ops, row.user_state),
    }),
    events,
    lastUpdateTime: ops.decodeTime(row.update_time),
  };
}

/**
 * The events of one session in append order, windowed like `getSession` asks (`timestamp >=
 * afterTimestamp`, then the last `numRecentEvents`). Each is decoded and frozen, as the in-memory
 * store hands them out; a row that is not an event throws `CorruptEventError`.
 */
export async function loadEvents(
  ops: DialectOps,
  trx: SessionDb,
  key: SessionKey,
  request: Pick<GetSessionRequest, 'numRecentEvents' | 'afterTimestamp'>,
): Promise<Event[]> {
  if (request.numRecentEvents === 0) return [];
  let query = trx
    .selectFrom('events')
    .select(['id', 'invocation_id', 'timestamp', 'event_data'])
    .where('app_name', '=', key.appName)
    .where('user_id', '=', key.userId)
    .where('session_id', '=', key.sessionId);
  if (request.afterTimestamp !== undefined) {
    query = query.where('timestamp', '>=', ops.encodeTime(request.afterTimestamp));
  }
  const recent = request.numRecentEvents !== undefined;
  const rows = await query
    .orderBy(ops.sequence, recent ? 'desc' : 'asc')
    .$if(recent, (q) => q.limit(request.numRecentEvents!))
    .execute();
  if (recent) rows.reverse();
  return rows.map((row) => {
    const corrupt = (reason: string, cause?: unknown) =>
      new CorruptEventError({ ...key, eventId: row.id, reason, cause });
    let data: unknown;
    try {
      data = ops.decodeJson(row.event_data);
    } catch (cause) {
      throw corrupt('event_data is not valid JSON', cause);
    }
    const event = decodeEventRow({
      id: row.id,
      invocationId: row.invocation_id,
      timestamp: row.timestamp === null ? undefined : ops.decodeTime(row.timestamp),
      data,
    });
    if (typeof event === 'string') throw corrupt(event);
    return deepFreeze(event);
  });
}
