import { StatePrefix } from './session';

/** A state delta split by scope; `app` and `user` keys have their prefix removed. */
export interface ScopedStateDelta {
  /** Keys for the app's state, without the `app:` prefix. */
  app: Record<string, unknown>;
  /** Keys for the user's state, without the `user:` prefix. */
  user: Record<string, unknown>;
  /** Keys for the session's own state (every key without a special prefix). */
  session: Record<string, unknown>;
}

/** True for a `temp:` key: visible during the invocation, never stored. */
export function isTempKey(key: string): boolean {
  return key.startsWith(StatePrefix.TEMP);
}

/**
 * Split a state delta (or an initial state) by scope: `app:k` goes to `app.k`, `user:k` to
 * `user.k`, `temp:k` is dropped, every other key goes to `session`. Values are not copied.
 *
 * @example
 * ```ts
 * splitStateDelta({ 'app:theme': 'dark', 'user:lang': 'fr', 'temp:x': 1, step: 2 });
 * // { app: { theme: 'dark' }, user: { lang: 'fr' }, session: { step: 2 } }
 * ```
 */
export function splitStateDelta(delta: Readonly<Record<string, unknown>>): ScopedStateDelta {
  const scoped: ScopedStateDelta = { app: {}, user: {}, session: {} };
  for (const [key, value] of Object.entries(delta)) {
    if (key.startsWith(StatePrefix.APP)) scoped.app[key.slice(StatePrefix.APP.length)] = value;
    else if (key.startsWith(StatePrefix.USER))
      scoped.user[key.slice(StatePrefix.USER.length)] = value;
    else if (!isTempKey(key)) scoped.session[key] = value;
  }
  return scoped;
}

/** A copy of `delta` without its `temp:` keys (the form in which a delta is stored). */
export function removeTempKeys(delta: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(delta)) if (!isTempKey(key)) kept[key] = value;
  return kept;
}

/**
 * The merged view a `Session.state` shows: session keys, then the app's keys as `app:<k>` and the
 * user's keys as `user:<k>`. Returns a new object; values are not copied.
 */
export function mergeStateViews(scopes: {
  session: Readonly<Record<string, unknown>>;
  app: Readonly<Record<string, unknown>>;
  user: Readonly<Record<string, unknown>>;
}): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...scopes.session };
  for (const [key, value] of Object.entries(scopes.app)) merged[StatePrefix.APP + key] = value;
  for (const [key, value] of Object.entries(scopes.user)) merged[StatePrefix.USER + key] = value;
  return merged;
}

/** True when `record` has at least one own key. */
export function hasKeys(record: Readonly<Record<string, unknown>>): boolean {
  for (const _ in record) return true;
  return false;
}
