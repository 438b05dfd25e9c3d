import type { SqlDialect } from '@adk/sql-kit';
import type { Kysely, RawBuilder } from 'kysely';

import type { SessionDatabase } from '../schema/tables';

/** The two databases this package supports (`SqlDialect` of `@adk/sql-kit`). */
export type DialectKind = SqlDialect;

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

/** What `appendEvent` did, and the append order the stored event got (when the tables have one). */
export interface AppendResult {
  outcome: AppendOutcome;
  order?: number;
}

/** An `events` row, as read (values still dialect-encoded). */
export interface EventRow {
  id: string;
  invocation_id: string;
  timestamp: unknown;
  event_data: unknown;
  /** The row's append order (`seq` on PostgreSQL, `rowid` on SQLite), when read. */
  order?: number;
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
 * What a reader already holds of a session: its events up to the one with append order `order`
 * and id `eventId` (`order` 0 and no `eventId` when it held no event).
 */
export interface LoadedUpTo {
  order: number;
  eventId: string | undefined;
}

/** One snapshot of a session: its row, and its events in append order (each with `order`). */
export interface LoadedSession {
  row: SessionScopesRow;
  events: EventRow[];
  /** `sessions.create_time`, decoded: a session deleted and created again under its id differs. */
  createTime: number;
  /**
   * With `upTo`: whether the event it names is still stored in this session (when it is not, the
   * session was deleted and created again, and `events` cannot extend what the reader holds).
   */
  anchored: boolean;
}

/**
 * What differs between SQLite and PostgreSQL. Everything else (the service logic, the stale rule,
 * the merge semantics) is written once in `SqlSessionService`.
 */
export interface DialectOps {
  readonly kind: DialectKind;
  encodeJson(value: object): unknown;
  decodeJson(raw: unknown): unknown;
  /** `ms` as a value (or SQL expression) for the time column `column` (`table.column`). */
  encodeTime(ms: number, column: string): unknown;
  decodeTime(raw: unknown): number;
  /** Select the time column `ref` (e.g. `s.update_time`) in the form `decodeTime` reads. */
  readTime(ref: string): RawBuilder<unknown>;
  /**
   * Whether events carry an append order that `loadSession` can read from (`upTo`); false on
   * tables of another ADK without one, where every read is a full read.
   */
  readonly ordered: boolean;
  /** Run `work` in a write transaction that serialises with every other writer of the session. */
  write<T>(db: SessionDb, work: (trx: SessionDb) => Promise<T>): Promise<T>;
  /**
   * Append atomically: when the session's stored marker equals `plan.expected`, insert the event,
   * merge each scope's delta (shallow) and move the marker to `plan.next`; otherwise write nothing.
   */
  appendEvent(db: SessionDb, plan: AppendPlan): Promise<AppendResult>;
  /**
   * Read one session, its scopes and its windowed events (append order) from one snapshot. With
   * `upTo` (and no window), only the events appended after the one it names are read.
   */
  loadSession(
    db: SessionDb,
    key: SessionKey,
    window: EventWindow,
    upTo?: LoadedUpTo,
  ): Promise<LoadedSession | undefined>;
  /** Inside `write`: shallow-merge `delta` into a shared state row, creating it when missing. */
  mergeScope(
    trx: SessionDb,
    scope: ScopeKey,
    delta: Record<string, unknown>,
    now: number,
  ): Promise<void>;
}
