import type { Event, Session } from '@adk/core';

import type { DialectOps, LoadedUpTo, SessionDb, SessionKey } from '../dialect';
import { loadedBytes, type LoadedSessions } from './loaded-sessions';
import { decodeEvents, sessionFromRow } from './session-rows';

/**
 * A full read of one session (no window). When `loaded` holds the session's events from an
 * earlier read (and the tables have an append order), only the events appended since are read, in
 * the same snapshot as the session row and its state; a session deleted and created again under
 * its id since (another `create_time`, or the last event read gone) is read from scratch. The
 * result equals a read from scratch taken in that snapshot (each event once, in order, whatever
 * appends complete while it waits), and `loaded` is brought up to date.
 */
export async function readWholeSession(
  ops: DialectOps,
  db: SessionDb,
  key: SessionKey,
  loaded: LoadedSessions,
): Promise<Session | undefined> {
  // What is held now, taken before the database is asked: an append that commits while the read
  // waits extends the held entry in place (see `SqlSessionService.appendEvent`), and the rows read
  // after `upTo` may already include its event. Only this prefix is combined with those rows.
  const entry = ops.ordered ? loaded.get(key) : undefined;
  const held = entry && {
    createTime: entry.createTime,
    count: entry.events.length,
    upTo: entry.upTo,
    bytes: entry.bytes,
  };
  let read = await ops.loadSession(db, key, {}, held?.upTo);
  let events: Event[];
  let bytes: number;
  let upTo: LoadedUpTo = { order: 0, eventId: undefined };
  if (entry && held && read && read.anchored && read.createTime === held.createTime) {
    const added = decodeEvents(ops, key, read.events);
    events = entry.events.slice(0, held.count).concat(added);
    bytes = held.bytes + loadedBytes(added, loaded.maxBytes - held.bytes);
    upTo = held.upTo;
  } else {
    // Never read, or deleted and created again since: read everything.
    if (read && held) read = await ops.loadSession(db, key, {});
    if (!read) {
      loaded.delete(key);
      return undefined;
    }
    events = decodeEvents(ops, key, read.events);
    bytes = ops.ordered ? loadedBytes(events, loaded.maxBytes) : 0;
  }
  const last = read.events.at(-1);
  if (last !== undefined) upTo = { order: last.order!, eventId: last.id };
  if (ops.ordered) loaded.set(key, { createTime: read.createTime, events, upTo, bytes });
  // The kept array is never handed out: the caller's Session gets its own.
  return sessionFromRow(ops, read.row, events.slice());
}
