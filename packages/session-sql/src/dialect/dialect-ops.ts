import type { Kysely, RawBuilder } from 'kysely';

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

/**
 * What differs between SQLite and PostgreSQL. Everything else (the service logic, the stale rule,
 * the merge semantics) is written once in `SqlSessionService`.
 */
export interface DialectOps {
  readonly kind: DialectKind;
  /** Column expression giving insertion order of events (`rowid` / `seq`). */
  readonly sequence: RawBuilder<unknown>;
  encodeJson(value: object): unknown;
  decodeJson(raw: unknown): unknown;
  encodeTime(ms: number): unknown;
  decodeTime(raw: unknown): number;
  /** Run `work` in a write transaction that serialises with every other writer of the session. */
  write<T>(db: SessionDb, work: (trx: SessionDb) => Promise<T>): Promise<T>;
  /** Run `work` against one consistent snapshot. */
  read<T>(db: SessionDb, work: (trx: SessionDb) => Promise<T>): Promise<T>;
  /**
   * Inside `write`: when the session's stored marker equals `expected`, merge `delta` (shallow)
   * into its state and set the marker to `next`, returning true; otherwise change nothing and
   * return false (missing or stale).
   */
  advanceSession(
    trx: SessionDb,
    key: SessionKey,
    expected: number,
    next: number,
    delta: Record<string, unknown>,
  ): Promise<boolean>;
  /** Inside `write`: shallow-merge `delta` into a shared state row, creating it when missing. */
  mergeScope(
    trx: SessionDb,
    scope: ScopeKey,
    delta: Record<string, unknown>,
    now: number,
  ): Promise<void>;
}
