import { InvalidArgumentError } from '../errors';
import type { Event, EventActions } from '../events';
import { IllFormedTextError, frozenCopyReplacing, shareFrozen } from './frozen-copy';
import type { Session } from './session';
import type { CreateSessionRequest } from './session-service';
import { hasKeys, removeTempKeys } from './state';
import { requireWellFormedText } from './well-formed-text';

/**
 * Helpers shared by session service implementations, so that every store applies the
 * `appendEvent` contract identically (in-memory, SQLite, Postgres).
 */

/**
 * Refuse what no store may persist: a partial (streamed) event, an event without a usable id or
 * timestamp, a `stateDelta` that is not a plain object, or text with a lone UTF-16 surrogate.
 * Throws `InvalidArgumentError`.
 */
export function validateEventForAppend(event: Event): void {
  validateEventShape(event);
  requireWellFormedText(event, 'event');
}

/**
 * {@link validateEventForAppend} then {@link copyEventForStorage}, walking the event once: the copy
 * checks the text it copies. What both built-in stores do with an event they are asked to append.
 * Throws `InvalidArgumentError` for anything either would refuse, naming where a lone surrogate is.
 *
 * @example
 * ```ts
 * const stored = copyValidEventForStorage(event); // then persist `stored`
 * ```
 */
export function copyValidEventForStorage(event: Event): Event {
  validateEventShape(event);
  return copyEventForStorage(event);
}

/** Everything {@link validateEventForAppend} checks but the text (which the copy checks). */
function validateEventShape(event: Event): void {
  if (event === null || typeof event !== 'object') {
    throw new InvalidArgumentError({
      message: 'appendEvent needs an event object.',
      argument: 'event',
    });
  }
  if (event.partial === true) {
    throw new InvalidArgumentError({
      message: `Event "${event.id}" is partial: partial (streamed) events are never stored.`,
      argument: 'event.partial',
    });
  }
  if (typeof event.id !== 'string' || event.id === '') {
    throw new InvalidArgumentError({
      message: 'An event needs a non-empty string id.',
      argument: 'event.id',
    });
  }
  if (typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp)) {
    throw new InvalidArgumentError({
      message: `Event "${event.id}" needs a finite numeric timestamp (ms).`,
      argument: 'event.timestamp',
    });
  }
  const delta: unknown = event.actions?.stateDelta;
  if (
    delta !== undefined &&
    (delta === null || typeof delta !== 'object' || Array.isArray(delta))
  ) {
    throw new InvalidArgumentError({
      message: `Event "${event.id}" has a stateDelta that is not a plain object.`,
      argument: 'event.actions.stateDelta',
    });
  }
}

/** The event's state delta, or an empty object when it has none. */
export function stateDeltaOf(event: Event): Record<string, unknown> {
  return event.actions?.stateDelta ?? {};
}

/**
 * The form in which an event is stored: a deep, deeply frozen copy (see `frozenCopy`), without
 * `temp:` keys in its delta, with an `actions` object even when the caller omitted one. Throws
 * `InvalidArgumentError` when the event holds values that cannot be copied (functions, symbols)
 * or text no store can keep (a lone UTF-16 surrogate in what it copies, named by its path).
 * Costs O(size of this event).
 */
export function copyEventForStorage(event: Event): Event {
  const actions = event.actions ?? {};
  // Most events carry no actions: they all share one frozen empty `actions` object.
  const storedActions = hasNoActions(actions) ? NO_ACTIONS : shapeActions(actions);
  try {
    return frozenCopyReplacing(event, 'actions', storedActions);
  } catch (cause) {
    if (cause instanceof IllFormedTextError) {
      // Walk again only now, to name where the text is (`temp:` keys were not copied: the copy's
      // own `actions` are checked, as they are what would be stored).
      requireWellFormedText({ ...event, actions: storedActions }, 'event');
    }
    throw new InvalidArgumentError({
      message: `Event "${event.id}" holds a value that cannot be stored (only JSON-like data can).`,
      argument: 'event',
      cause,
    });
  }
}

/** `actions` as stored: every record present, no `temp:` keys; {@link NO_ACTIONS} when empty. */
function shapeActions(actions: Partial<EventActions>): EventActions {
  const shaped: EventActions = {
    ...actions,
    stateDelta: removeTempKeys(actions.stateDelta ?? {}),
    artifactDelta: actions.artifactDelta ?? {},
    requestedToolConfirmations: actions.requestedToolConfirmations ?? {},
  };
  return hasNoActions(shaped) ? NO_ACTIONS : shaped;
}

/** The `actions` of every stored event that has none (shared by {@link copyEventForStorage}). */
const NO_ACTIONS: EventActions = shareFrozen<EventActions>({
  stateDelta: {},
  artifactDelta: {},
  requestedToolConfirmations: {},
});

function hasNoActions(actions: EventActions): boolean {
  for (const key in actions) {
    const value: unknown = actions[key as keyof EventActions];
    if (value === undefined) continue;
    const isRecord =
      key === 'stateDelta' || key === 'artifactDelta' || key === 'requestedToolConfirmations';
    if (!isRecord || hasKeys(value as Record<string, unknown>)) return false;
  }
  return true;
}

/** Freeze `value` and everything reachable from it, so it can be shared without copying. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * The next `lastUpdateTime` of a session: the wall clock, but always strictly greater than the
 * previous one, so that two appends within one millisecond still produce distinct markers.
 */
export function nextUpdateTime(previous: number): number {
  return Math.max(Date.now(), previous + 1);
}

/**
 * Update the caller's session object after a successful append: push the stored event, merge the
 * whole delta into `state` (including `temp:` keys, so the rest of the invocation sees them; values
 * are copied, never aliased) and advance `lastUpdateTime`.
 */
export function applyAppendToSession(
  session: Session,
  storedEvent: Event,
  delta: Readonly<Record<string, unknown>>,
  lastUpdateTime: number,
): void {
  session.events.push(storedEvent);
  if (hasKeys(delta)) Object.assign(session.state, structuredClone(delta));
  session.lastUpdateTime = lastUpdateTime;
}

/** Throws `InvalidArgumentError` when an id field is not a non-empty string. */
export function requireId(value: unknown, argument: string): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    throw new InvalidArgumentError({
      message: `${argument} must be a non-empty string.`,
      argument,
    });
  }
}

/**
 * Validates a `createSession` request the same way for every store: non-empty `appName`,
 * `userId` and session id, and an initial state that is a plain object.
 *
 * @returns the session id to use (`request.sessionId`, or `newId()` when omitted) and the initial
 *   state (an empty object when omitted).
 * @throws InvalidArgumentError naming the offending field.
 */
export function validateCreateSessionRequest(
  request: CreateSessionRequest,
  newId: () => string,
): { sessionId: string; initialState: Record<string, unknown> } {
  requireId(request.appName, 'appName');
  requireId(request.userId, 'userId');
  const sessionId = request.sessionId ?? newId();
  requireId(sessionId, 'sessionId');
  const initialState: unknown = request.state ?? {};
  if (initialState === null || typeof initialState !== 'object' || Array.isArray(initialState)) {
    throw new InvalidArgumentError({ message: 'state must be a plain object.', argument: 'state' });
  }
  requireWellFormedText(sessionId, 'sessionId');
  requireWellFormedText(request.appName, 'appName');
  requireWellFormedText(request.userId, 'userId');
  requireWellFormedText(initialState, 'state');
  return { sessionId, initialState: initialState as Record<string, unknown> };
}
