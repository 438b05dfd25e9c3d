import type { Event } from '../events';
import type { Session } from './session';

export interface CreateSessionRequest {
  appName: string;
  userId: string;
  /** Id to use; generated when omitted. A taken id throws `SessionExistsError`. */
  sessionId?: string;
  /** Initial state, with the same prefix rules as a state delta (`temp:` keys are dropped). */
  state?: Record<string, unknown>;
}

export interface GetSessionRequest {
  appName: string;
  userId: string;
  sessionId: string;
  /** Return only the N most recent events (0 returns none). */
  numRecentEvents?: number;
  /** Return only events with `timestamp >= afterTimestamp` (ms). */
  afterTimestamp?: number;
}

export interface ListSessionsRequest {
  appName: string;
  /** Restrict to one user; all users of the app when omitted. */
  userId?: string;
}

export interface ListSessionsResponse {
  /** Sessions with their merged state and **no** events. */
  sessions: Session[];
}

export interface DeleteSessionRequest {
  appName: string;
  userId: string;
  sessionId: string;
}

export interface AppendEventRequest {
  /** The session as the caller last saw it; updated in place on success. */
  session: Session;
  event: Event;
}

/**
 * Stores sessions and their events, and applies state deltas.
 *
 * `appendEvent` contract (identical for every implementation, checked by the conformance suite in
 * `@adk/core/testing/vitest`):
 * - partial events are refused (`InvalidArgumentError`): only final events are stored;
 * - `event.actions.stateDelta` is applied atomically with the event: `app:k` to the app's state,
 *   `user:k` to the user's, `temp:k` nowhere (and removed from the stored delta), any other key to
 *   the session; the merge is shallow (a key's new value replaces the old one);
 * - the caller's `session` object is updated in place (event pushed, state merged including
 *   `temp:` keys so the rest of the invocation sees them, `lastUpdateTime` advanced);
 * - a `session` object that is stale (another writer appended since it was read) is rejected
 *   with `StaleSessionError` and nothing is written.
 *
 * **The stale rule.** Every session carries a revision marker, `lastUpdateTime`: set at creation,
 * and replaced on every append by `max(now, previous + 1)`, so it strictly increases even when
 * several appends land in the same millisecond. `appendEvent` compares the stored marker with
 * `session.lastUpdateTime` inside the same atomic step that writes the event; when they differ,
 * storage holds something this object has not seen, and the append is refused with
 * `StaleSessionError` (nothing written). On success the caller's object receives the new marker,
 * so a single writer that keeps appending through the object it holds (what the Runner does) can
 * never fail this check; appends made concurrently through one object (parallel branches of an
 * invocation) are applied one after the other in call order. Recover with `getSession` and retry.
 * Objects from `createSession`, `getSession` (any event window) and `listSessions` all carry the
 * current marker.
 *
 * Other errors: a missing session is `SessionNotFoundError`; an event id already stored in the
 * session is `InvalidArgumentError` (nothing overwritten).
 *
 * Objects returned by a service never alias its storage: `state` is the caller's own copy, and
 * events are deep-frozen (snapshots shared between readers, or freshly decoded rows), so code that
 * tries to modify a stored event fails loudly instead of corrupting history. Events are returned in
 * append order.
 */
export interface SessionService {
  createSession(request: CreateSessionRequest): Promise<Session>;
  /** The session, or `undefined` when it does not exist. */
  getSession(request: GetSessionRequest): Promise<Session | undefined>;
  listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse>;
  /** Delete the session and its events; deleting a missing session is not an error. */
  deleteSession(request: DeleteSessionRequest): Promise<void>;
  /** Store `event` in `session` and apply its state delta; returns the stored event. */
  appendEvent(request: AppendEventRequest): Promise<Event>;
}
