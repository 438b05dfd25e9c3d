import type { SqliteSynchronous } from '@adk/sql-kit';
import type { Kysely } from 'kysely';

import type { DialectKind } from '../dialect';

/** Options of {@link SqlSessionService}. */
export interface SqlSessionServiceOptions {
  /** Your Kysely instance over SQLite (better-sqlite3) or PostgreSQL (pg). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any user database type is accepted
  db: Kysely<any>;
  /** The database kind; detected from the Kysely adapter when omitted. */
  dialect?: DialectKind;
  /** PostgreSQL schema holding the tables; the connection's `search_path` decides when omitted. */
  schema?: string;
  /** Create or upgrade the tables on first use (default false: call `migrate()` yourself). */
  autoMigrate?: boolean;
  /** Destroy `db` in `close()` (default false: the instance is yours). */
  ownsDatabase?: boolean;
  /**
   * How many sessions' events the service keeps between reads (default 1,024, least recently read
   * dropped first; 0 keeps none). A full `getSession` of a kept session reads only the events
   * appended since the last read, so a runner's per-turn read does not grow with the session's
   * length. The events kept are the frozen objects handed out anyway.
   */
  loadedSessions?: number;
  /**
   * About how many bytes of heap the kept events may hold over all kept sessions (default 4 MiB,
   * estimated with `approximateEventBytes` of `@adk/core`); the least recently read sessions are
   * dropped first, and a session larger than this on its own is not kept (its reads are full
   * reads). Bounds the memory of a server with long sessions whatever their events' size;
   * `Infinity` bounds by `loadedSessions` only.
   */
  loadedSessionsMaxBytes?: number;
  /**
   * SQLite: for how long an operation that finds the database locked by other writers (after the
   * connection's busy timeout) is tried again before it fails with `SqliteBusyError` (retryable;
   * nothing was written). Default 60000 ms; 0 tries once.
   */
  busyRetryMs?: number;
  /**
   * PostgreSQL through the `pg` driver (Kysely's `PostgresDialect`): send the statements of every
   * turn (the append, the session read) as named prepared statements, which PostgreSQL parses and
   * plans once per connection rather than once per call (about a sixth of the database's CPU for
   * those statements, docs/PERFORMANCE.md). Default: on with `fromUrl` (which opens a `pg` pool),
   * off for your own Kysely instance, whose driver may not be `pg`. Turn it off behind a
   * connection pooler that does not keep prepared statements across transactions (PgBouncer in
   * transaction mode before 1.21). Ignored on SQLite.
   */
  preparedStatements?: boolean;
}

/** Options of {@link SqlSessionService.fromUrl} and `createSessionService`. */
export interface SqlSessionServiceUrlOptions extends Pick<
  SqlSessionServiceOptions,
  | 'schema'
  | 'autoMigrate'
  | 'loadedSessions'
  | 'loadedSessionsMaxBytes'
  | 'busyRetryMs'
  | 'preparedStatements'
> {
  /** SQLite: how long a writer waits for the database lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /**
   * SQLite file: when a commit waits for the disk (default `full`: an append that returned survives
   * a power failure). `normal` is faster but can lose the last appends on a power failure or OS
   * crash. A `?synchronous=` parameter in the URL takes precedence.
   */
  synchronous?: SqliteSynchronous;
  /** PostgreSQL: maximum pool size (default 10). */
  poolSize?: number;
}
