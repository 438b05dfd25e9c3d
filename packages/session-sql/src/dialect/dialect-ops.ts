import type { Kysely } from 'kysely';

import type { SessionDatabase } from '../schema/tables';

/** The two databases this package supports. */
export type DialectKind = 'sqlite' | 'postgres';

/** A Kysely handle on the session tables (possibly bound to one connection or transaction). */
export type SessionDb = Kysely<SessionDatabase>;

/** Key of a session row. */
export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

/** Which scope row a shared-state merge targets. */
export type ScopeKey =
  | { table: 'app_states'; appName: string }
  | { table: 'user_states'; appName: string; userId: string };

/** Everything one `appendEvent` writes, prepared before touching the database. */
export interface AppendPlan {
  key: SessionKey;
  /** The marker the caller's Session object holds (`lastUpdateTime`). */
  expected: number;
  /** The new marker. */
  next: number;
  event: { id: string; invocationId: string; timestamp: number; data: unknown };
  /** The delta by scope, prefixes stripped, `temp:` dropped. */
  delta: {
    app: Record<string, unknown>;
    user: Record<string, unknown>;
    session: Record<string, unknown>;
  };
}

/** What became of an append; anything but `appended` wrote nothing. */
export type AppendOutcome = 'appended' | 'stale' | 'missing' | 'duplicate-event';

/** An `events` row, as read (values still dialect-encoded). */
export interface EventRow {
  id: string;
  invocation_id: string;
  timestamp: unknown;
  event_data: unknown;
}

/** A session row joined with its scopes, as read (values still dialect-encoded). */
export interface SessionScopesRow {
  id: string;
  app_name: string;
  user_id: string;
  session_state: unknown;
  update_time: unknown;
  app_state: unknown;
  user_state: unknown;
}

/** The window of a `getSession` request. */
export interface EventWindow {
  numRecentEvents?: number;
  afterTimestamp?: number;
}

/**
 * What differs between SQLite and PostgreSQL. Everything else (the service logic, the stale rule,
 * the merge semantics) is written once in `SqlSessionService`.
 */
export interface DialectOps {
  readonly kind: DialectKind;
  encodeJson(value: object): unknown;
  decodeJson(raw: unknown): unknown;
  encodeTime(ms: number): unknown;
  decodeTime(raw: unknown): number;
  /** Run `work` in a write transaction that serialises with every other writer of the session. */
  write<T>(db: SessionDb, work: (trx: SessionDb) => Promise<T>): Promise<T>;
  /**
   * Append atomically: when the session's stored marker equals `plan.expected`, insert the event,
   * merge each scope's delta (shallow) and move the marker to `plan.next`; otherwise write nothing.
   */
  appendEvent(db: SessionDb, plan: AppendPlan): Promise<AppendOutcome>;
  /** Read one session, its scopes and its windowed events (append order) from one snapshot. */
  loadSession(
    db: SessionDb,
    key: SessionKey,
    window: EventWindow,
  ): Promise<{ row: SessionScopesRow; events: EventRow[] } | undefined>;
  /** Inside `write`: shallow-merge `delta` into a shared state row, creating it when missing. */
  mergeScope(
    trx: SessionDb,
    scope: ScopeKey,
    delta: Record<string, unknown>,
    now: number,
  ): Promise<void>;
}
