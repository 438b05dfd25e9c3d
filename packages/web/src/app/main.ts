import './style.css';

import { api } from './api/client';
import type { AppInfo } from './api/types';
import { renderSession, setUpChat } from './chat/chat';
import { guard, showError } from './panels/errors';
import { setUpTabs } from './panels/tabs';
import { openSession, refreshSessions, setUpSessions } from './sessions/sessions-panel';
import { store } from './store';
import { setUpTheme } from './theme';
import { byId, h } from './util/dom';
import { setUpVoice } from './voice/voice';

interface WebUiConfig {
  title?: string;
  notice?: string | null;
  defaultApp?: string | null;
}

let knownApps: string[] = [];
let defaultApp = '';

/**
 * Show what the address says: `#<app>` or `#<app>/<session>` (back, forward, shared links), else
 * the official UI's `?app=<app>&session=<session>` (links made for `adk web`'s `/dev-ui/`).
 */
async function followHash(): Promise<void> {
  const query = new URLSearchParams(location.search);
  const [hashApp, hashSession] = location.hash
    ? location.hash.slice(1).split('/').map(decodeURIComponent)
    : [query.get('app') ?? '', query.get('session') ?? ''];
  const app = hashApp && knownApps.includes(hashApp) ? hashApp : store.state.app || defaultApp;
  if (app !== store.state.app) {
    store.state.app = app;
    store.state.sessionId = '';
    store.state.session = undefined;
    store.state.selectedEventId = undefined;
    byId<HTMLSelectElement>('app-select').value = app;
    store.emit('session');
    store.emit('app');
  }
  if (hashSession && hashSession !== store.state.sessionId) await openSession(hashSession);
  await refreshSessions();
}

async function main(): Promise<void> {
  setUpTheme();
  setUpChat();
  setUpVoice();
  setUpSessions();
  store.on('session', () => renderSession(store.state.session));
  const config: WebUiConfig = await fetch('/web-ui/config')
    .then((response) => (response.ok ? (response.json() as Promise<WebUiConfig>) : {}))
    .catch(() => ({}));
  if (config.title) {
    byId('title').textContent = config.title;
    document.title = config.title;
  }
  if (config.notice) {
    const notice = byId('notice');
    notice.textContent = config.notice;
    notice.hidden = false;
  }
  const { apps } = await api<{ apps: AppInfo[] }>('/list-apps?detailed=true');
  const select = byId<HTMLSelectElement>('app-select');
  select.replaceChildren(
    ...apps.map((app) => h('option', { value: app.name, title: app.description ?? '' }, app.name)),
  );
  knownApps = apps.map((app) => app.name);
  defaultApp =
    config.defaultApp && knownApps.includes(config.defaultApp)
      ? config.defaultApp
      : (knownApps[0] ?? '');
  select.addEventListener('change', () => {
    location.hash = encodeURIComponent(select.value); // followHash switches the app
  });
  const user = byId<HTMLInputElement>('user-input');
  user.addEventListener('change', () => {
    store.state.user = user.value || 'user';
    store.state.sessionId = '';
    store.state.session = undefined;
    store.emit('session');
    void guard('Loading sessions', refreshSessions);
  });
  setUpTabs();
  await followHash();
  window.addEventListener('hashchange', () => void guard('Opening', followHash));
  document.body.dataset.ready = 'true';
  // Time to a usable page, from navigation start (PERFORMANCE.md).
  performance.mark('adk-ready');
}

main().catch((error: unknown) => {
  showError(error, 'Starting');
  document.body.dataset.ready = 'error';
});
