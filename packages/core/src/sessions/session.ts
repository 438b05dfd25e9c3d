import type { Event } from '../events';

/**
 * A conversation between one user and one app: its events and its state.
 *
 * `state` is the merged view: session keys, plus the app's keys as `app:<k>` and the user's keys
 * as `user:<k>`. Change it only through `event.actions.stateDelta`; objects returned by a session
 * service never alias what it stores.
 */
export interface Session {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  /** Events, oldest first (possibly a window, see `GetSessionRequest`). */
  events: Event[];
  /** Milliseconds since the epoch of the last append (or of creation). */
  lastUpdateTime: number;
}

/** State key prefixes and their scopes. */
export const StatePrefix = {
  /** Shared by every user and session of the app. */
  APP: 'app:',
  /** Shared by every session of the user in the app. */
  USER: 'user:',
  /** Visible during the current invocation only; never persisted. */
  TEMP: 'temp:',
} as const;
