import type { Session } from '../api/types';

/**
 * The state key where the official ADK web UI (adk-web, `@google/adk-devtools`) keeps a session's
 * metadata; its `displayName` is the session's name in both UIs.
 */
export const METADATA_KEY = '__session_metadata__';

/** Where this UI stored a name before it used the official key; still read. */
export const LEGACY_TITLE_KEY = 'adk_web_title';

/** Longest name taken from a first message, as the official UI cuts it (47 characters and "..."). */
const FIRST_MESSAGE_NAME_MAX = 50;

function metadataOf(state: Record<string, unknown> | undefined): Record<string, unknown> {
  const value = state?.[METADATA_KEY];
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** The name stored in the session's state (`__session_metadata__.displayName`), if any. */
export function displayName(state: Record<string, unknown> | undefined): string | undefined {
  for (const given of [metadataOf(state).displayName, state?.[LEGACY_TITLE_KEY]]) {
    if (typeof given === 'string' && given.trim()) return given.trim();
  }
  return undefined;
}

/**
 * The state delta that names a session `name`, where both UIs read it: the metadata object
 * whole (a delta replaces a key's value), its other members kept.
 */
export function nameDelta(
  state: Record<string, unknown> | undefined,
  name: string,
): Record<string, unknown> {
  return { [METADATA_KEY]: { ...metadataOf(state), displayName: name } };
}

/** The name a first message gives a session (what the official UI stores when it creates one). */
export function nameFromMessage(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > FIRST_MESSAGE_NAME_MAX
    ? `${line.slice(0, FIRST_MESSAGE_NAME_MAX - 3)}...`
    : line;
}

/**
 * A session's name: the stored one (given with Rename, or at its first message), else its first
 * user message, else "New session".
 */
export function sessionTitle(session: Pick<Session, 'state' | 'events'>): string {
  const given = displayName(session.state);
  if (given) return given;
  for (const event of session.events ?? []) {
    if (event.author !== 'user') continue;
    const text = (event.content?.parts ?? []).map((part) => part.text ?? '').join(' ');
    if (text.trim()) return nameFromMessage(text);
  }
  return 'New session';
}

/** Whether a session matches a search: its title, id, or any text of its events. */
export function sessionMatches(
  session: Pick<Session, 'id' | 'state' | 'events'>,
  query: string,
): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  if (sessionTitle(session).toLowerCase().includes(needle)) return true;
  if (session.id.toLowerCase().includes(needle)) return true;
  return (session.events ?? []).some((event) =>
    (event.content?.parts ?? []).some((part) => part.text?.toLowerCase().includes(needle)),
  );
}

/**
 * The state delta that turns `before` into `after`: changed and new keys with their value,
 * removed keys set to `null`.
 */
export function stateDelta(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (JSON.stringify(before[key]) !== JSON.stringify(value)) delta[key] = value;
  }
  for (const key of Object.keys(before)) if (!(key in after)) delta[key] = null;
  return delta;
}

/**
 * Apply an event's state delta to a state held by the page, as the session service does (each
 * key replaced; `temp:` keys are not kept). Returns whether anything changed.
 */
export function applyStateDelta(
  state: Record<string, unknown>,
  delta: Record<string, unknown> | undefined,
): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(delta ?? {})) {
    if (key.startsWith('temp:')) continue;
    state[key] = value;
    changed = true;
  }
  return changed;
}
