import type { Session } from '../api/types';

/** The state key holding a name given in the UI (set through a state delta, so it is an event). */
export const TITLE_KEY = 'adk_web_title';

/**
 * A session's name: the one given with Rename, else its first user message (one line, at most 60
 * characters), else "New session".
 */
export function sessionTitle(session: Pick<Session, 'state' | 'events'>): string {
  const given = session.state?.[TITLE_KEY];
  if (typeof given === 'string' && given.trim()) return given.trim();
  for (const event of session.events ?? []) {
    if (event.author !== 'user') continue;
    const text = (event.content?.parts ?? [])
      .map((part) => part.text ?? '')
      .join(' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (text) return text.length > 60 ? `${text.slice(0, 57)}…` : text;
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
