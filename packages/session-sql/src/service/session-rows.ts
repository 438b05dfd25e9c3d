import { deepFreeze, mergeStateViews, type Event, type Session } from '@adk/core';

import { decodeEventRow } from '../codec';
import type { DialectOps, EventRow, SessionKey, SessionScopesRow } from '../dialect';
import { CorruptEventError } from '../errors';

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
 * Decode event rows, each frozen as the in-memory store hands them out; a row that is not an
 * event throws `CorruptEventError` naming the session and the event.
 */
export function decodeEvents(ops: DialectOps, key: SessionKey, rows: EventRow[]): Event[] {
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
