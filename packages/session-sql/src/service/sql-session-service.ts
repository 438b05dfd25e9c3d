import { randomUUID } from 'node:crypto';

import {
  applyAppendToSession,
  copyValidEventForStorage,
  deepFreeze,
  InvalidArgumentError,
  nextUpdateTime,
  SessionExistsError,
  SessionNotFoundError,
  splitStateDelta,
  StaleSessionError,
  stateDeltaOf,
  validateCreateSessionRequest,
  validateEventWindow,
  type AppendEventRequest,
  type CreateSessionRequest,
  type DeleteSessionRequest,
  type Event,
  type GetSessionRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Session,
  type SessionService,
} from '@adk/core';
import {
  checkSchemaOption,
  inSchema,
  openSqlDatabase,
  requireSqlDialect,
  retryWhileSqliteBusy,
  type SqlTablesLocation,
} from '@adk/sql-kit';
import { sql, type Kysely } from 'kysely';

import { encodeEventData } from '../codec';
import {
  selectSessionsWithScopes,
  postgresOps,
  sqliteOps,
  type DialectKind,
  type DialectOps,
  type SessionDb,
  type SessionKey,
} from '../dialect';
import { readPostgresLayout, refuseUnusableLayout } from '../dialect/postgres-layout';
import {
  checkSchema,
  migrateSessionSchema,
  reconcileEventsIndex,
  sqliteEventsTable,
  type SessionDatabase,
} from '../schema';
import { CallOrderQueue } from './call-order-queue';
import { LoadedSessions } from './loaded-sessions';
import { readWholeSession } from './read-whole-session';
import type { SqlSessionServiceOptions, SqlSessionServiceUrlOptions } from './options';
import { refusingUnstorableValues } from './database-errors';
import { decodeEvents, sessionFromRow } from './session-rows';

const DEFAULT_SQLITE_BUSY_TIMEOUT_MS = 5000;
/**
 * How long a SQLite operation that finds the database locked is tried again, by default. SQLite's
 * write lock is not queued fairly: under sustained writes by other processes, one writer can lose
 * every try for seconds while the others go on (up to 7.8 s measured for one append, with a median
 * of 2-19 ms, 8 processes in tight loops on 2 cores at load 20-38): the bound leaves a wide margin.
 */
const DEFAULT_SQLITE_BUSY_RETRY_MS = 60_000;
/**
 * Sessions whose events the service keeps between reads by default (see `LoadedSessions`). The
 * byte budget bounds the memory; this bound is loose so that a server's many sessions in flight
 * each stay kept: with fewer places than sessions taking turns in rotation, every read would be a
 * whole read.
 */
const DEFAULT_LOADED_SESSIONS = 1024;
/**
 * Heap the kept events may hold over all sessions by default (see `LoadedSessions`): 4 MiB, chosen
 * with the soak of `packages/bench/src/session-soak.ts` (docs/PERFORMANCE.md, "Caches bounded by
 * bytes"): a larger budget keeps the heap of a server with long sessions growing for thousands of
 * turns before it levels off, while a session that does not fit costs one whole read per turn.
 */
const DEFAULT_LOADED_SESSIONS_MAX_BYTES = 4 * 2 ** 20;

/**
 * A {@link SessionService} over SQL: SQLite or PostgreSQL through Kysely, in the table layout of the
 * Python ADK v1 / `@google/adk` `DatabaseSessionService` (one database can be shared with them).
 *
 * Each `appendEvent` is one transaction: the stale check (see `SessionService`), the event row, the
 * session state and revision marker, the app and user state. Appends to one session are
 * serialised (row lock on PostgreSQL, `BEGIN IMMEDIATE` on SQLite); shared app and user state is
 * merged without lost updates. A stale Session object gets `StaleSessionError` and nothing is
 * written.
 *
 * @example
 * ```ts
 * import { SqlSessionService } from '@adk/session-sql';
 *
 * const sessions = await SqlSessionService.fromUrl('sqlite:./sessions.db');
 * await sessions.migrate();
 * const runner = new Runner({ appName: 'weather', agent, sessionService: sessions });
 * ```
 */
export class SqlSessionService implements SessionService {
  readonly #root: Kysely<SessionDatabase>;
  readonly #db: SessionDb;
  /** Replaced once the PostgreSQL tables' layout is known (see `#prepare`). */
  #ops: DialectOps;
  readonly #schema: string | undefined;
  readonly #location: SqlTablesLocation;
  readonly #autoMigrate: boolean;
  readonly #ownsDatabase: boolean;
  readonly #busyRetryMs: number;
  readonly #prepared: boolean;
  #ready: Promise<void> | undefined;
  /** One object's appends run in call order. */
  readonly #appending = new CallOrderQueue<Session>();
  /** The events of recently read sessions: a full read loads only what was appended since. */
  readonly #loaded: LoadedSessions;

  constructor(options: SqlSessionServiceOptions) {
    const root = options.db as Kysely<SessionDatabase>;
    const kind = requireSqlDialect(root, {
      override: options.dialect,
      // A wrapper's or a second Kysely copy's adapter is recognised by its class name.
      matchAdapterName: true,
      unsupported: () =>
        new InvalidArgumentError({
          message: 'Unsupported Kysely dialect: pass dialect: "sqlite" or "postgres".',
          argument: 'dialect',
        }),
    });
    checkSchemaOption(kind, options.schema);
    this.#root = root;
    this.#db = inSchema(root, options.schema);
    this.#prepared = options.preparedStatements ?? false;
    this.#ops =
      kind === 'postgres' ? postgresOps(options.schema, undefined, this.#prepared) : sqliteOps;
    this.#schema = options.schema;
    this.#location = { dialect: kind, schema: options.schema };
    this.#autoMigrate = options.autoMigrate ?? false;
    this.#ownsDatabase = options.ownsDatabase ?? false;
    const busyRetryMs = options.busyRetryMs ?? DEFAULT_SQLITE_BUSY_RETRY_MS;
    if (!(Number.isFinite(busyRetryMs) && busyRetryMs >= 0))
      throw new InvalidArgumentError({
        message: 'busyRetryMs must be a number of milliseconds, 0 or more.',
        argument: 'busyRetryMs',
      });
    this.#busyRetryMs = busyRetryMs;
    const maxBytes = options.loadedSessionsMaxBytes ?? DEFAULT_LOADED_SESSIONS_MAX_BYTES;
    if (!(typeof maxBytes === 'number' && maxBytes >= 0))
      throw new InvalidArgumentError({
        message:
          'loadedSessionsMaxBytes must be a number of bytes, 0 or more (Infinity: no bound).',
        argument: 'loadedSessionsMaxBytes',
      });
    this.#loaded = new LoadedSessions(
      Math.max(0, Math.floor(options.loadedSessions ?? DEFAULT_LOADED_SESSIONS)),
      maxBytes,
    );
  }

  /**
   * Open a database from a URL: `sqlite:./path.db`, `sqlite:/absolute/path.db`, `sqlite::memory:`,
   * `postgres://user@host:5432/db`. Loads `better-sqlite3` or `pg` on demand. The service owns the
   * connection: call `close()` when done. On PostgreSQL the statements of every turn are prepared
   * (`preparedStatements`, on by default here).
   */
  static async fromUrl(
    url: string,
    options: SqlSessionServiceUrlOptions = {},
  ): Promise<SqlSessionService> {
    const { db, dialect } = await openSqlDatabase<SessionDatabase>(url, options);
    try {
      return new SqlSessionService({
        ...options,
        db,
        dialect,
        ownsDatabase: true,
        preparedStatements: options.preparedStatements ?? dialect === 'postgres',
      });
    } catch (error) {
      await db.destroy(); // refused options: do not leave the connection open
      throw error;
    }
  }

  /**
   * The Kysely instance the service runs on: yours, or the one `fromUrl` opened (which `close()`
   * destroys). For inspection and your own queries; the session tables are the service's.
   */
  get database(): Kysely<SessionDatabase> {
    return this.#root;
  }

  /** The database kind in use. */
  get dialect(): DialectKind {
    return this.#ops.kind;
  }

  /**
   * Create or upgrade the tables (idempotent). Refuses a database whose schema version is newer
   * than this package's with `SchemaVersionError`.
   */
  async migrate(): Promise<void> {
    await this.#retrying(() => this.#prepare(true));
    this.#ready = Promise.resolve();
  }

  /** Release the connection when this service opened it (`fromUrl` or `ownsDatabase`). */
  async close(): Promise<void> {
    if (this.#ownsDatabase) await this.#root.destroy();
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const { sessionId, initialState: initial } = validateCreateSessionRequest(request, randomUUID);
    const scoped = structuredClone(splitStateDelta(initial));
    await this.#ensureReady();
    const ops = this.#ops;
    const { appName, userId } = request;
    const now = Date.now();
    return refusingUnstorableValues(() =>
      this.#retrying(() =>
        ops.write(this.#db, async (trx) => {
          const inserted = await trx
            .insertInto('sessions')
            .values({
              id: sessionId,
              app_name: appName,
              user_id: userId,
              state: ops.encodeJson(scoped.session),
              create_time: ops.encodeTime(now, 'sessions.create_time'),
              update_time: ops.encodeTime(now, 'sessions.update_time'),
            })
            .onConflict((conflict) => conflict.doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!inserted) throw new SessionExistsError({ appName, userId, sessionId });
          await ops.mergeScope(trx, { table: 'app_states', appName }, scoped.app, now);
          await ops.mergeScope(trx, { table: 'user_states', appName, userId }, scoped.user, now);
          const row = await this.#sessionRows(trx, appName, userId)
            .where('s.id', '=', sessionId)
            .executeTakeFirstOrThrow();
          return sessionFromRow(ops, row, []);
        }),
      ),
    );
  }

  /**
   * Read a session. A full read (no window) of a session this service read recently loads only the
   * events appended since, in the same snapshot as the session row and its state (see
   * `loadedSessions`); the result is the same as a read from scratch.
   */
  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    validateEventWindow(request);
    await this.#ensureReady();
    const key: SessionKey = {
      appName: request.appName,
      userId: request.userId,
      sessionId: request.sessionId,
    };
    const full = request.numRecentEvents === undefined && request.afterTimestamp === undefined;
    if (!full) {
      const loaded = await this.#retrying(() => this.#ops.loadSession(this.#db, key, request));
      if (!loaded) return undefined;
      return sessionFromRow(this.#ops, loaded.row, decodeEvents(this.#ops, key, loaded.events));
    }
    return this.#retrying(() => readWholeSession(this.#ops, this.#db, key, this.#loaded));
  }

  async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    await this.#ensureReady();
    const rows = await this.#retrying(() =>
      this.#sessionRows(this.#db, request.appName, request.userId)
        .orderBy('s.create_time')
        .orderBy('s.id')
        .execute(),
    );
    return { sessions: rows.map((row) => sessionFromRow(this.#ops, row, [])) };
  }

  async deleteSession(request: DeleteSessionRequest): Promise<void> {
    await this.#ensureReady();
    this.#loaded.delete({
      appName: request.appName,
      userId: request.userId,
      sessionId: request.sessionId,
    });
    await this.#retrying(() =>
      this.#ops.write(this.#db, async (trx) => {
        // The session row first: this waits for an append in flight, and later appends then find
        // no session, so no event can be left behind.
        await trx
          .deleteFrom('sessions')
          .where('app_name', '=', request.appName)
          .where('user_id', '=', request.userId)
          .where('id', '=', request.sessionId)
          .execute();
        await trx
          .deleteFrom('events')
          .where('app_name', '=', request.appName)
          .where('user_id', '=', request.userId)
          .where('session_id', '=', request.sessionId)
          .execute();
      }),
    );
  }

  /**
   * Append through `session` (see the `SessionService` contract). Appends made concurrently through
   * the same Session object (for example by parallel branches of one invocation) are applied one
   * after the other in call order, each seeing the marker the previous one left: one object is one
   * writer, and never gets a spurious `StaleSessionError` from itself.
   */
  appendEvent(request: AppendEventRequest): Promise<Event> {
    return this.#appending.run(request.session, () => this.#append(request));
  }

  async #append(request: AppendEventRequest): Promise<Event> {
    const { session, event } = request;
    // Validated and copied in one walk, before any I/O: a refused event costs no round trip.
    const storedEvent = copyValidEventForStorage(event);
    await this.#ensureReady();
    const ops = this.#ops;
    const key: SessionKey = {
      appName: session.appName,
      userId: session.userId,
      sessionId: session.id,
    };
    const next = nextUpdateTime(session.lastUpdateTime);
    // What the caller's Session held before: the kept events extend only if they are the same.
    const priorCount = session.events.length;
    const prior = session.events[priorCount - 1];
    const { outcome, order } = await refusingUnstorableValues(() =>
      this.#retrying(() =>
        ops.appendEvent(this.#db, {
          key,
          expected: session.lastUpdateTime,
          next,
          event: {
            id: storedEvent.id,
            invocationId: storedEvent.invocationId,
            timestamp: storedEvent.timestamp,
            data: ops.encodeJson(encodeEventData(storedEvent)),
          },
          delta: splitStateDelta(storedEvent.actions.stateDelta),
        }),
      ),
    );
    switch (outcome) {
      case 'appended':
        break;
      case 'stale':
        throw new StaleSessionError({ sessionId: session.id });
      case 'missing':
        throw new SessionNotFoundError(key);
      case 'duplicate-event':
        throw new InvalidArgumentError({
          message: `Event "${storedEvent.id}" is already stored in session "${session.id}".`,
          argument: 'event.id',
        });
    }

    deepFreeze(storedEvent);
    applyAppendToSession(session, storedEvent, stateDeltaOf(event), next);
    // The Session was current (the stale check passed) and held exactly the kept events: they
    // now end with this very object, so the next read shares it (and loads nothing new).
    const held = order === undefined ? undefined : this.#loaded.get(key);
    if (held && held.events.length === priorCount && held.events[priorCount - 1] === prior) {
      this.#loaded.extend(key, held, storedEvent, { order: order!, eventId: storedEvent.id });
    }
    return storedEvent;
  }

  #sessionRows(trx: SessionDb, appName: string, userId: string | undefined) {
    const query = selectSessionsWithScopes(trx, this.#ops).where('s.app_name', '=', appName);
    return userId === undefined ? query : query.where('s.user_id', '=', userId);
  }

  /**
   * SQLite: run `work` (a read, or a whole transaction: nothing is written when it fails busy)
   * again while it finds the database locked beyond the busy timeout, for up to `busyRetryMs`, then
   * throw `SqliteBusyError`. PostgreSQL waits on row locks instead: `work` runs once.
   */
  #retrying<T>(work: () => Promise<T>): Promise<T> {
    if (this.#ops.kind !== 'sqlite') return work();
    return retryWhileSqliteBusy(work, { retryMs: this.#busyRetryMs });
  }

  #ensureReady(): Promise<void> {
    this.#ready ??= this.#retrying(() => this.#prepare(this.#autoMigrate)).catch(
      (error: unknown) => {
        this.#ready = undefined;
        throw error;
      },
    );
    return this.#ready;
  }

  async #prepare(migrate: boolean): Promise<void> {
    if (this.#ops.kind === 'sqlite') {
      const result = await sql<{ timeout: number }>`pragma busy_timeout`.execute(this.#root);
      const current = Object.values(result.rows[0] ?? {})[0];
      if (current === 0)
        await sql
          .raw(`pragma busy_timeout = ${DEFAULT_SQLITE_BUSY_TIMEOUT_MS}`)
          .execute(this.#root);
    }
    // Tables another ADK created that this package cannot use are refused before anything changes.
    if (this.#ops.kind === 'postgres')
      refuseUnusableLayout(await readPostgresLayout(this.#root, this.#schema), false);
    if (migrate) await migrateSessionSchema(this.#root as Kysely<unknown>, this.#location);
    else await checkSchema(this.#root as Kysely<unknown>, this.#location);
    let ownsEvents: boolean;
    if (this.#ops.kind === 'postgres') {
      const report = await readPostgresLayout(this.#root, this.#schema);
      refuseUnusableLayout(report, true);
      this.#ops = postgresOps(this.#schema, report.layout, this.#prepared);
      ownsEvents = report.layout.eventSeq; // only this package's migration adds `seq`
    } else {
      ownsEvents = (await sqliteEventsTable(this.#root as Kysely<unknown>)) === 'own';
    }
    // Our index on our table, recreated when another ADK dropped it; never on another ADK's table.
    await reconcileEventsIndex(this.#root as Kysely<unknown>, this.#location, {
      ownsEvents,
      migrating: migrate,
    });
  }
}
