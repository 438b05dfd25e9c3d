import { api, json } from '../api/client';
import type { AdkEvent, Session } from '../api/types';
import { guard, showError } from '../panels/errors';
import { store } from '../store';
import { byId, download, h } from '../util/dom';
import { formatWhen } from '../util/time';
import { nameDelta, sessionMatches, sessionTitle } from './session-title';

/** Sessions whose events are loaded to name and search them (newest first); older ones by id. */
const MAX_DETAILED = 100;
/** Full sessions by id, with the `lastUpdateTime` they were fetched at: refetched when it moves. */
const details = new Map<string, Session>();
let listed: Session[] = [];
/** Only the latest refresh draws: an older one finishing late must not overwrite it. */
let generation = 0;

function detailed(session: Session): Session {
  const full = details.get(session.id);
  return full && full.lastUpdateTime >= session.lastUpdateTime
    ? full
    : { ...session, events: session.events ?? [], state: session.state ?? {} };
}

async function loadDetails(sessions: Session[]): Promise<void> {
  const queue = sessions
    .slice(0, MAX_DETAILED)
    .filter((session) => (details.get(session.id)?.lastUpdateTime ?? -1) < session.lastUpdateTime);
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const full = await api<Session>(
        `${store.userPath}/sessions/${encodeURIComponent(next.id)}`,
      ).catch(() => undefined);
      if (full) details.set(full.id, full);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Fetch the list (and what names and search need), then draw it. */
export async function refreshSessions(): Promise<void> {
  if (!store.state.app) return;
  const mine = ++generation;
  const sessions = await api<Session[]>(`${store.userPath}/sessions`);
  sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime);
  await loadDetails(sessions);
  if (mine !== generation) return;
  listed = sessions;
  // Keep the cache to the sessions listed now.
  const ids = new Set(sessions.map((session) => session.id));
  for (const id of details.keys()) if (!ids.has(id)) details.delete(id);
  drawSessions();
}

function drawSessions(): void {
  const query = byId<HTMLInputElement>('session-search').value;
  const items = listed
    .map(detailed)
    .filter((session) => sessionMatches(session, query))
    .map(sessionItem);
  byId('session-list').replaceChildren(
    ...(items.length > 0
      ? items
      : [h('li', { class: 'empty' }, query ? 'No session matches.' : 'No sessions yet.')]),
  );
}

function sessionItem(session: Session): HTMLElement {
  const title = sessionTitle(session);
  const item = h('li', {
    class: session.id === store.state.sessionId ? 'active' : '',
    'data-session-id': session.id,
  });
  const open = h(
    'button',
    {
      type: 'button',
      class: 'open',
      title: `${session.id}\nUpdated ${new Date(session.lastUpdateTime < 1e11 ? session.lastUpdateTime * 1000 : session.lastUpdateTime).toLocaleString()}`,
      onclick: () => void openSession(session.id),
    },
    h('span', { class: 'session-title' }, title),
    h('time', { class: 'session-date' }, formatWhen(session.lastUpdateTime)),
  );
  const actions = h(
    'span',
    { class: 'actions' },
    h(
      'button',
      {
        type: 'button',
        class: 'rename',
        title: 'Rename',
        'aria-label': `Rename ${title}`,
        onclick: () => startRename(item, session, title),
      },
      '✎',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'export',
        title: 'Export as JSON',
        'aria-label': `Export ${title}`,
        onclick: () => void exportSession(session.id),
      },
      '⤓',
    ),
    h(
      'button',
      {
        type: 'button',
        class: 'delete',
        title: 'Delete',
        'aria-label': `Delete ${title}`,
        onclick: () => askDelete(item, session, title),
      },
      '✕',
    ),
  );
  item.append(open, actions);
  return item;
}

function askDelete(item: HTMLElement, session: Session, title: string): void {
  const ask = h(
    'div',
    { class: 'ask' },
    h('span', {}, `Delete “${title}”?`),
    h(
      'button',
      { type: 'button', class: 'confirm-delete', onclick: () => void deleteSession(session.id) },
      'Delete',
    ),
    h('button', { type: 'button', class: 'cancel', onclick: () => ask.remove() }, 'Cancel'),
  );
  item.querySelector('.ask')?.remove();
  item.append(ask);
}

function startRename(item: HTMLElement, session: Session, title: string): void {
  const input = h('input', { class: 'rename-input', value: title, 'aria-label': 'New name' });
  const save = async () => {
    const name = input.value.trim();
    if (!name || name === title) return drawSessions();
    await guard('Renaming the session', () =>
      api(
        `${store.userPath}/sessions/${encodeURIComponent(session.id)}`,
        // Stored where the official ADK web UI reads it too: one name in both.
        json('PATCH', { state_delta: nameDelta(session.state, name) }),
      ),
    );
    if (session.id === store.state.sessionId) await guard('Reloading', reloadOpenSession);
    await guard('Loading sessions', refreshSessions);
  };
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') void save();
    if (event.key === 'Escape') drawSessions();
  });
  item.querySelector('.open')?.replaceWith(input);
  input.focus();
  input.select();
}

async function reloadOpenSession(): Promise<void> {
  store.state.session = await api<Session>(store.sessionPath);
  store.emit('session');
}

/** Open a session: its conversation, state and artifacts. */
export async function openSession(id: string): Promise<void> {
  store.state.sessionId = id;
  store.state.selectedEventId = undefined;
  location.hash = `${encodeURIComponent(store.state.app)}/${encodeURIComponent(id)}`;
  await guard('Opening the session', reloadOpenSession);
  drawSessions();
}

/** Start a new, empty conversation (the session is created with the first message). */
export async function newSession(): Promise<void> {
  const session = await api<Session>(`${store.userPath}/sessions`, json('POST', {}));
  await openSession(session.id);
  await refreshSessions();
  byId('message-input').focus();
}

async function deleteSession(id: string): Promise<void> {
  await guard('Deleting the session', () =>
    api(`${store.userPath}/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );
  if (id === store.state.sessionId) {
    store.state.sessionId = '';
    store.state.session = undefined;
    store.state.selectedEventId = undefined;
    history.replaceState(null, '', `${location.pathname}#${encodeURIComponent(store.state.app)}`);
    store.emit('session');
  }
  await guard('Loading sessions', refreshSessions);
}

/** The JSON file format of an exported session. */
export interface SessionExport {
  format: 'adk-session';
  version: 1;
  appName: string;
  userId: string;
  session: Session;
}

async function exportSession(id: string): Promise<void> {
  const session = await guard('Exporting the session', () =>
    api<Session>(`${store.userPath}/sessions/${encodeURIComponent(id)}`),
  );
  if (!session) return;
  const file: SessionExport = {
    format: 'adk-session',
    version: 1,
    appName: store.state.app,
    userId: store.state.user,
    session,
  };
  download(
    `${store.state.app}-${id}.json`,
    new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }),
  );
}

/** Import an exported session as a new session of the current app and user. */
export async function importSession(text: string): Promise<void> {
  let parsed: Partial<SessionExport> & Partial<Session>;
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    showError(error, 'Importing: the file is not JSON');
    return;
  }
  const session = parsed.session ?? (parsed as Session);
  if (!Array.isArray(session.events)) {
    showError(
      new SyntaxError('no "events" array found (export a session with ⤓ first)'),
      'Importing',
    );
    return;
  }
  const created = await guard('Importing the session', () =>
    api<Session>(
      `${store.userPath}/sessions`,
      json('POST', {
        state: {},
        events: session.events.map((event: AdkEvent) => ({ ...event, partial: false })),
      }),
    ),
  );
  if (!created) return;
  await refreshSessions();
  await openSession(created.id);
}

/** Wire the session list: new, search, import. */
export function setUpSessions(): void {
  byId('new-session').addEventListener('click', () => void guard('Creating a session', newSession));
  byId('session-search').addEventListener('input', drawSessions);
  const file = byId<HTMLInputElement>('import-file');
  byId('import-session').addEventListener('click', () => file.click());
  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    file.value = '';
    if (chosen) void chosen.text().then(importSession);
  });
  store.on('running', () => {
    if (!store.state.running) void guard('Loading sessions', refreshSessions);
  });
}
