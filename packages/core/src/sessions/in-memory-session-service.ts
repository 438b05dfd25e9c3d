import { randomUuid } from '../events/random-uuid';

import {
  InvalidArgumentError,
  SessionExistsError,
  SessionNotFoundError,
  StaleSessionError,
} from '../errors';
import type { Event } from '../events';
import {
  applyAppendToSession,
  copyValidEventForStorage,
  nextUpdateTime,
  stateDeltaOf,
  validateCreateSessionRequest,
} from './append-helpers';
import { selectEventWindow, validateEventWindow } from './event-window';
import { IdlePacker, type PackableItem } from './idle-packer';
import { packEvents, unpackEvents } from './packed-events';
import type { Session } from './session';
import type {
  AppendEventRequest,
  CreateSessionRequest,
  DeleteSessionRequest,
  GetSessionRequest,
  ListSessionsRequest,
  ListSessionsResponse,
  SessionService,
} from './session-service';
import { hasKeys, mergeStateViews, splitStateDelta } from './state';

interface StoredSession extends PackableItem {
  readonly id: string;
  readonly appName: string;
  readonly userId: string;
  /** Session-scoped state; values are private copies. */
  state: Record<string, unknown>;
  /**
   * Deep-frozen events, shared with every reader (never copied again after append), or
   * `undefined` while the session is packed.
   */
  events: Event[] | undefined;
  /** The events of an idle session, packed (see `packed-events.ts`); `undefined` when in use. */
  packed: string | undefined;
  /** Ids of `events`, indexed once the session has {@link INDEX_EVENT_IDS_FROM} events. */
  eventIds: Set<string> | undefined;
  lastUpdateTime: number;
}

/**
 * @internal The synchronous forms of `getSession` and `appendEvent` of an
 * {@link InMemorySessionService}, for the Runner (see {@link inMemoryDirect}): each call of the
 * async methods costs a promise and an await per stored event, which is a measurable share of a
 * turn when the store does no I/O.
 */
export const GET_SESSION_NOW = Symbol('getSessionNow');
/** @internal See {@link GET_SESSION_NOW}. */
export const APPEND_EVENT_NOW = Symbol('appendEventNow');

/** @internal What {@link inMemoryDirect} hands the Runner: the store's synchronous calls. */
export interface DirectSessionCalls {
  [GET_SESSION_NOW](request: GetSessionRequest): Session | undefined;
  [APPEND_EVENT_NOW](request: AppendEventRequest): Event;
}

/**
 * @internal `service` when it is an {@link InMemorySessionService} whose `getSession` and
 * `appendEvent` are its own (a subclass that overrides either is called through them), so the
 * Runner may call their synchronous forms; `undefined` otherwise.
 */
export function inMemoryDirect(service: SessionService): DirectSessionCalls | undefined {
  return service instanceof InMemorySessionService &&
    service.getSession === InMemorySessionService.prototype.getSession &&
    service.appendEvent === InMemorySessionService.prototype.appendEvent
    ? service
    : undefined;
}

/**
 * Smaller sessions check duplicate event ids by scanning (an idle session keeps no index, nor does
 * one just after its first turn, 4 events). From here on, a `Set`: a scan reads the id of every
 * stored event, each its own object, and with 1,000 sessions in flight each read is a cache miss
 * (at 32, the scan was 5% of the CPU of 1,000 concurrent sessions × 5 turns; see PERFORMANCE.md).
 */
const INDEX_EVENT_IDS_FROM = 8;

/** The state of every session created without one (replaced, never mutated, on the first write). */
const NO_STATE: Record<string, unknown> = Object.freeze({});

function hasEventId(stored: StoredSession, events: readonly Event[], id: string): boolean {
  if (stored.eventIds) return stored.eventIds.has(id);
  for (let index = 0; index < events.length; index++) if (events[index]!.id === id) return true;
  return false;
}

function recordEventId(stored: StoredSession, events: readonly Event[], id: string): void {
  if (stored.eventIds) stored.eventIds.add(id);
  else if (events.length >= INDEX_EVENT_IDS_FROM) {
    stored.eventIds = new Set(events.map((event) => event.id));
  }
}

/** Replace the session's events by their packed form (the timer's and `packSessions`'s work). */
function packSession(stored: StoredSession): boolean {
  if (stored.events === undefined || stored.events.length === 0) return false;
  let packed: string;
  try {
    packed = packEvents(stored.events);
  } catch {
    // Packing only saves memory: a session that cannot be packed (out of memory) stays as it is.
    return false;
  }
  stored.packed = packed;
  stored.events = undefined;
  stored.eventIds = undefined;
  return true;
}

/** Default of {@link InMemorySessionServiceOptions.packIdleSessionsAfterMs}. */
const DEFAULT_PACK_IDLE_SESSIONS_AFTER_MS = 2_000;

/** Options of {@link InMemorySessionService}. */
export interface InMemorySessionServiceOptions {
  /**
   * A session that nobody reads or writes for this many milliseconds (up to 1.5 times as long)
   * has its events packed: serialised and compressed into one string, about a seventh of their
   * size as objects. The next `getSession` or `appendEvent` on it unpacks them (tens of
   * microseconds for a short session, about a millisecond per thousand events). `false` keeps
   * every session as objects. Default: 2,000 ms.
   */
  packIdleSessionsAfterMs?: number | false;
}

interface StoredUser {
  state: Record<string, unknown>;
  readonly sessions: Map<string, StoredSession>;
}

interface StoredApp {
  state: Record<string, unknown>;
  readonly users: Map<string, StoredUser>;
}

/**
 * A {@link SessionService} that keeps everything in process memory: for tests, examples and
 * single-process apps. Data is lost when the process exits.
 *
 * - Stored events are deep-copied once at append time and frozen; reads hand out those frozen
 *   events (never a copy of the history), so a turn costs the same at event 10 and event 10,000.
 *   State values are copied on the way in and on the way out, so callers never alias storage.
 * - Every call completes without yielding between its checks and its writes, so concurrent calls
 *   in one process are applied one at a time.
 * - A session left alone for a while (2 s by default, see
 *   {@link InMemorySessionServiceOptions.packIdleSessionsAfterMs}) has its events packed into one
 *   compact string, and unpacked by the next call that needs them: thousands of idle
 *   conversations take a fraction of the memory, and nothing a caller sees changes (event ids,
 *   values and order are identical; only object identity differs from before packing).
 *
 * @example
 * ```ts
 * const sessions = new InMemorySessionService();
 * const session = await sessions.createSession({ appName: 'weather', userId: 'u1' });
 * await sessions.appendEvent({ session, event: createEvent({ invocationId: 'i1', author: 'user' }) });
 * ```
 */
export class InMemorySessionService implements SessionService {
  readonly #apps = new Map<string, StoredApp>();
  readonly #packer: IdlePacker<StoredSession> | undefined;

  constructor(options: InMemorySessionServiceOptions = {}) {
    const after = options.packIdleSessionsAfterMs ?? DEFAULT_PACK_IDLE_SESSIONS_AFTER_MS;
    if (after !== false && !(typeof after === 'number' && after > 0 && Number.isFinite(after))) {
      throw new InvalidArgumentError({
        message: 'packIdleSessionsAfterMs must be a positive number of milliseconds, or false.',
        argument: 'packIdleSessionsAfterMs',
      });
    }
    this.#packer = after === false ? undefined : new IdlePacker(after, packSession);
  }

  async createSession(request: CreateSessionRequest): Promise<Session> {
    const { sessionId, initialState: initial } = validateCreateSessionRequest(request, randomUuid);
    const scoped = hasKeys(initial) ? structuredClone(splitStateDelta(initial)) : undefined;

    const app = this.#app(request.appName, true);
    const user = this.#user(app, request.userId, true);
    if (user.sessions.has(sessionId)) {
      throw new SessionExistsError({ appName: request.appName, userId: request.userId, sessionId });
    }
    if (scoped && hasKeys(scoped.app)) app.state = { ...app.state, ...scoped.app };
    if (scoped && hasKeys(scoped.user)) user.state = { ...user.state, ...scoped.user };
    const stored: StoredSession = {
      id: sessionId,
      appName: request.appName,
      userId: request.userId,
      state: scoped?.session ?? NO_STATE,
      events: [],
      packed: undefined,
      eventIds: undefined,
      lastUpdateTime: Date.now(),
      touchedAtTick: 0,
      watched: false,
    };
    user.sessions.set(sessionId, stored);
    return this.#view(stored, app, user, []);
  }

  async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return this[GET_SESSION_NOW](request);
  }

  /** @internal {@link getSession}, synchronously (see {@link inMemoryDirect}). */
  [GET_SESSION_NOW](request: GetSessionRequest): Session | undefined {
    validateEventWindow(request);
    const found = this.#find(request.appName, request.userId, request.sessionId);
    if (!found) return undefined;
    const { stored, app, user } = found;
    return this.#view(stored, app, user, selectEventWindow(this.#eventsOf(stored), request));
  }

  async listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    const app = this.#app(request.appName, false);
    const sessions: Session[] = [];
    if (!app) return { sessions };
    const users =
      request.userId === undefined
        ? [...app.users.values()]
        : [app.users.get(request.userId)].filter((user) => user !== undefined);
    for (const user of users) {
      for (const stored of user.sessions.values()) sessions.push(this.#view(stored, app, user, []));
    }
    return { sessions };
  }

  async deleteSession(request: DeleteSessionRequest): Promise<void> {
    const user = this.#app(request.appName, false)?.users.get(request.userId);
    const stored = user?.sessions.get(request.sessionId);
    if (!user || !stored) return;
    this.#packer?.forget(stored);
    user.sessions.delete(request.sessionId);
  }

  async appendEvent(request: AppendEventRequest): Promise<Event> {
    return this[APPEND_EVENT_NOW](request);
  }

  /** @internal {@link appendEvent}, synchronously (see {@link inMemoryDirect}). */
  [APPEND_EVENT_NOW](request: AppendEventRequest): Event {
    const { session, event } = request;
    // Validated and copied in one walk (O(this event)), then shared with every later reader.
    const storedEvent = copyValidEventForStorage(event);
    const found = this.#find(session.appName, session.userId, session.id);
    if (!found) {
      throw new SessionNotFoundError({
        appName: session.appName,
        userId: session.userId,
        sessionId: session.id,
      });
    }
    const { stored, app, user } = found;
    if (stored.lastUpdateTime !== session.lastUpdateTime) {
      throw new StaleSessionError({ sessionId: session.id });
    }
    const events = this.#eventsOf(stored);
    if (hasEventId(stored, events, event.id)) {
      throw new InvalidArgumentError({
        message: `Event "${event.id}" is already stored in session "${session.id}".`,
        argument: 'event.id',
      });
    }

    if (hasKeys(storedEvent.actions.stateDelta)) {
      const scoped = structuredClone(splitStateDelta(storedEvent.actions.stateDelta));
      if (hasKeys(scoped.app)) app.state = { ...app.state, ...scoped.app };
      if (hasKeys(scoped.user)) user.state = { ...user.state, ...scoped.user };
      if (hasKeys(scoped.session)) stored.state = { ...stored.state, ...scoped.session };
    }
    events.push(storedEvent);
    recordEventId(stored, events, storedEvent.id);
    stored.lastUpdateTime = nextUpdateTime(stored.lastUpdateTime);

    applyAppendToSession(session, storedEvent, stateDeltaOf(event), stored.lastUpdateTime);
    return storedEvent;
  }

  /**
   * Pack the events of every session now, as if they had all been idle for
   * {@link InMemorySessionServiceOptions.packIdleSessionsAfterMs} (whether or not idle packing is
   * on): for a process that is about to sit idle, or to check that an app works with packed
   * sessions. Returns how many sessions were packed.
   */
  packSessions(): number {
    let packed = 0;
    for (const app of this.#apps.values()) {
      for (const user of app.users.values()) {
        for (const stored of user.sessions.values()) {
          this.#packer?.forget(stored);
          if (packSession(stored)) packed++;
        }
      }
    }
    return packed;
  }

  /** The session's events as objects (unpacked if needed); marks the session as in use. */
  #eventsOf(stored: StoredSession): Event[] {
    let events = stored.events;
    if (events === undefined) {
      events = unpackEvents(stored.packed!);
      stored.events = events;
      stored.packed = undefined;
    }
    this.#packer?.touch(stored);
    return events;
  }

  #app(appName: string, create: true): StoredApp;
  #app(appName: string, create: false): StoredApp | undefined;
  #app(appName: string, create: boolean): StoredApp | undefined {
    let app = this.#apps.get(appName);
    if (!app && create) {
      app = { state: {}, users: new Map() };
      this.#apps.set(appName, app);
    }
    return app;
  }

  #user(app: StoredApp, userId: string, create: true): StoredUser {
    let user = app.users.get(userId);
    if (!user && create) {
      user = { state: {}, sessions: new Map() };
      app.users.set(userId, user);
    }
    return user as StoredUser;
  }

  #find(
    appName: string,
    userId: string,
    sessionId: string,
  ): { stored: StoredSession; app: StoredApp; user: StoredUser } | undefined {
    const app = this.#apps.get(appName);
    const user = app?.users.get(userId);
    const stored = user?.sessions.get(sessionId);
    return app && user && stored ? { stored, app, user } : undefined;
  }

  /** A caller-owned view: a new events array (of frozen events) and a copied merged state. */
  #view(stored: StoredSession, app: StoredApp, user: StoredUser, events: Event[]): Session {
    return {
      id: stored.id,
      appName: stored.appName,
      userId: stored.userId,
      state:
        hasKeys(stored.state) || hasKeys(app.state) || hasKeys(user.state)
          ? structuredClone(
              mergeStateViews({ session: stored.state, app: app.state, user: user.state }),
            )
          : {},
      events,
      lastUpdateTime: stored.lastUpdateTime,
    };
  }
}
