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
 * `@adk/core/testing`):
 * - partial events are refused (`InvalidArgumentError`): only final events are stored;
 * - `event.actions.stateDelta` is applied atomically with the event: `app:k` to the app's state,
 *   `user:k` to the user's, `temp:k` nowhere (and removed from the stored delta), any other key to
 *   the session; the merge is shallow (a key's new value replaces the old one);
 * - the caller's `session` object is updated in place (event pushed, state merged including
 *   `temp:` keys so the rest of the invocation sees them, `lastUpdateTime` advanced);
 * - a `session` object that is stale (another writer appended since it was read) is rejected
 *   with `StaleSessionError` and nothing is written.
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
