// The ADK web chat page: vanilla JS over the ADK API (/list-apps, sessions, /run_sse).

const $ = (id) => document.getElementById(id);
const ui = {
  title: $('title'),
  notice: $('notice'),
  apps: $('app-select'),
  user: $('user-input'),
  sessions: $('session-list'),
  newSession: $('new-session'),
  messages: $('messages'),
  composer: $('composer'),
  input: $('message-input'),
  send: $('send'),
  stop: $('stop'),
  state: $('state-view'),
  info: $('session-info'),
};

const current = { app: '', session: '', running: null };

/** The bearer token for servers started with one (asked once, kept in this browser). */
function authHeaders() {
  const token = localStorage.getItem('adk-token');
  return token ? { authorization: `Bearer ${token}` } : {};
}

async function api(path, options = {}) {
  const response = await fetch(path, {
    ...options,
    headers: { 'content-type': 'application/json', ...authHeaders(), ...options.headers },
  });
  if (response.status === 401) {
    const token = prompt('This server needs an API token (ADK_API_TOKEN):');
    if (token) {
      localStorage.setItem('adk-token', token);
      return api(path, options);
    }
  }
  if (!response.ok) {
    const body = await response.json().catch(() => ({}));
    throw new Error(body.detail || `${response.status} ${response.statusText}`);
  }
  return response.json();
}

const userPath = () =>
  `/apps/${encodeURIComponent(current.app)}/users/${encodeURIComponent(ui.user.value || 'user')}`;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function scrollDown() {
  ui.messages.scrollTop = ui.messages.scrollHeight;
}

// ---- rendering -------------------------------------------------------------------------------

/** Live bubbles of streamed (partial) text, by author. */
const live = new Map();
/** Ids of confirmation requests already answered (no buttons for them). */
const answered = new Set();

function bubble(author, text, extraClass = '') {
  const node = el('div', `bubble ${author === 'user' ? 'user' : 'agent'} ${extraClass}`.trim());
  if (author !== 'user') node.append(el('span', 'author', author));
  node.append(el('span', 'text', text));
  ui.messages.append(node);
  return node;
}

function toolBlock(kind, name, payload) {
  const block = el('details', 'tool');
  block.dataset.kind = kind;
  const label =
    kind === 'call' ? `→ ${name}(${compact(payload)})` : `← ${name}: ${compact(payload)}`;
  block.append(el('summary', '', label), el('pre', '', JSON.stringify(payload ?? {}, null, 2)));
  ui.messages.append(block);
  return block;
}

function compact(value) {
  const text = JSON.stringify(value ?? {});
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function note(text, className = 'note') {
  ui.messages.append(el('div', className, text));
}

function confirmation(event, call) {
  const original = call.args?.originalFunctionCall ?? call.args?.original_function_call ?? {};
  const hint = call.args?.toolConfirmation?.hint ?? call.args?.tool_confirmation?.hint ?? '';
  const box = el('div', 'bubble agent');
  box.append(
    el('span', 'author', event.author),
    el(
      'span',
      '',
      `Approval needed: ${original.name ?? 'tool'}(${compact(original.args)}) ${hint}`,
    ),
  );
  ui.messages.append(box);
  if (answered.has(call.id)) return;
  const buttons = el('div', 'confirm');
  for (const [label, confirmed] of [
    ['Approve', true],
    ['Reject', false],
  ]) {
    const button = el('button', '', label);
    button.type = 'button';
    button.addEventListener('click', () => {
      buttons.remove();
      answered.add(call.id);
      note(confirmed ? '✔ approved' : '✘ rejected');
      void send({
        role: 'user',
        parts: [{ functionResponse: { id: call.id, name: call.name, response: { confirmed } } }],
      });
    });
    buttons.append(button);
  }
  box.append(buttons);
}

function renderEvent(event) {
  if (event.error) {
    note(`⚠ ${event.errorMessage || event.error}`, 'bubble error');
    return;
  }
  const parts = event.content?.parts ?? [];
  if (event.partial) {
    const text = parts
      .filter((p) => p.text && !p.thought)
      .map((p) => p.text)
      .join('');
    if (!text) return;
    let node = live.get(event.author);
    if (!node) {
      node = bubble(event.author, '', 'streaming');
      live.set(event.author, node);
    }
    node.querySelector('.text').textContent += text;
    return;
  }
  const streamed = live.get(event.author);
  if (streamed) {
    streamed.remove();
    live.delete(event.author);
  }
  for (const part of parts) {
    if (part.text && part.thought) bubble(event.author, part.text, 'thought');
    else if (part.text) bubble(event.author, part.text);
    else if (part.functionCall?.name === 'adk_request_confirmation' && event.author !== 'user')
      confirmation(event, part.functionCall);
    else if (part.functionCall?.name === 'transfer_to_agent')
      continue; // shown as "transferred to"
    else if (part.functionCall) toolBlock('call', part.functionCall.name, part.functionCall.args);
    else if (part.functionResponse?.name === 'adk_request_confirmation') {
      answered.add(part.functionResponse.id);
      note(part.functionResponse.response?.confirmed ? '✔ approved' : '✘ rejected');
    } else if (part.functionResponse?.name === 'transfer_to_agent') continue;
    else if (part.functionResponse)
      toolBlock('result', part.functionResponse.name, part.functionResponse.response);
    else if (part.inlineData)
      note(`attachment: ${part.inlineData.displayName ?? part.inlineData.mimeType}`);
  }
  if (event.errorMessage) note(`⚠ ${event.errorMessage}`, 'bubble error');
  const actions = event.actions ?? {};
  if (actions.transferToAgent) note(`→ transferred to ${actions.transferToAgent}`);
  for (const [name, version] of Object.entries(actions.artifactDelta ?? {}))
    artifactLink(name, version);
}

function artifactLink(name, version) {
  const block = el('details', 'tool');
  block.append(el('summary', '', `artifact ${name} (v${version})`));
  block.addEventListener('toggle', async () => {
    if (!block.open || block.dataset.loaded) return;
    block.dataset.loaded = '1';
    const path = `${userPath()}/sessions/${current.session}/artifacts/${encodeURIComponent(name)}?version=${version}`;
    try {
      const part = await api(path);
      const text =
        part.text ?? (part.inlineData ? atob(part.inlineData.data) : JSON.stringify(part));
      block.append(el('pre', '', text));
    } catch (error) {
      block.append(el('pre', '', String(error.message)));
    }
  });
  ui.messages.append(block);
}

// ---- sessions ------------------------------------------------------------------------------

async function refreshSessions() {
  const sessions = await api(`${userPath()}/sessions`);
  ui.sessions.replaceChildren(
    ...sessions.map((session) => {
      const item = el('li', session.id === current.session ? 'active' : '');
      const open = el('button', 'open', session.id);
      open.type = 'button';
      // Milliseconds by default; seconds when the server runs with timestampUnit: 'seconds'.
      const updated =
        session.lastUpdateTime < 1e11 ? session.lastUpdateTime * 1000 : session.lastUpdateTime;
      open.title = `Updated ${new Date(updated).toLocaleString()}`;
      open.addEventListener('click', () => void openSession(session.id));
      const remove = el('button', 'delete', '✕');
      remove.type = 'button';
      remove.title = 'Delete this session';
      remove.setAttribute('aria-label', `Delete session ${session.id}`);
      remove.addEventListener('click', () => void deleteSession(session.id));
      item.append(open, remove);
      return item;
    }),
  );
}

function showSession(session) {
  ui.state.textContent = JSON.stringify(session.state ?? {}, null, 2);
  ui.info.textContent = `${session.id} · ${session.events.length} events`;
}

async function openSession(id) {
  current.session = id;
  location.hash = `${encodeURIComponent(current.app)}/${encodeURIComponent(id)}`;
  const session = await api(`${userPath()}/sessions/${encodeURIComponent(id)}`);
  ui.messages.replaceChildren();
  live.clear();
  answered.clear();
  for (const event of session.events) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionResponse?.name === 'adk_request_confirmation')
        answered.add(part.functionResponse.id);
    }
  }
  session.events.forEach(renderEvent);
  showSession(session);
  scrollDown();
  await refreshSessions();
}

async function newSession() {
  const session = await api(`${userPath()}/sessions`, { method: 'POST', body: '{}' });
  await openSession(session.id);
  ui.input.focus();
}

async function deleteSession(id) {
  await api(`${userPath()}/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });
  if (id === current.session) {
    current.session = '';
    ui.messages.replaceChildren();
    ui.state.textContent = '{}';
    ui.info.textContent = 'No session yet.';
    history.replaceState(null, '', location.pathname);
  }
  await refreshSessions();
}

// ---- running a turn ---------------------------------------------------------------------------

/** The "working…" bubble shown while the agent has not produced its next event. */
let pending = null;

function showPending() {
  pending ??= el('div', 'bubble agent pending', 'working…');
  ui.messages.append(pending);
}

function clearPending() {
  pending?.remove();
  pending = null;
}

function setRunning(controller) {
  current.running = controller;
  ui.send.disabled = Boolean(controller);
  ui.stop.hidden = !controller;
}

async function send(message) {
  if (current.running) return;
  // Running from the first moment: a second click while the session is being created is ignored.
  const controller = new AbortController();
  setRunning(controller);
  try {
    if (!current.session) {
      const session = await api(`${userPath()}/sessions`, { method: 'POST', body: '{}' });
      current.session = session.id;
      location.hash = `${encodeURIComponent(current.app)}/${encodeURIComponent(session.id)}`;
    }
    if (message.parts.some((part) => part.text))
      bubble('user', message.parts.map((part) => part.text ?? '').join(''));
    showPending();
    const response = await fetch('/run_sse', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...authHeaders(),
      },
      body: JSON.stringify({
        app_name: current.app,
        user_id: ui.user.value || 'user',
        session_id: current.session,
        new_message: message,
        streaming: true,
      }),
      signal: controller.signal,
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      throw new Error(body.detail || response.statusText);
    }
    await readFrames(response, (event) => {
      clearPending();
      if (event.author !== 'user') renderEvent(event);
      if (!event.partial && !event.error) showPending();
      scrollDown();
    });
  } catch (error) {
    if (error.name !== 'AbortError') note(`⚠ ${error.message}`, 'bubble error');
    else note('Stopped.');
  } finally {
    clearPending();
    for (const node of live.values()) node.classList.remove('streaming');
    live.clear();
    setRunning(null);
    const session = current.session
      ? await api(`${userPath()}/sessions/${encodeURIComponent(current.session)}`).catch(() => null)
      : null;
    if (session) showSession(session);
    await refreshSessions().catch(() => undefined);
  }
}

/** Read `data: <json>` frames from a text/event-stream response. */
async function readFrames(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) onEvent(JSON.parse(data));
    }
  }
}

// ---- wiring ---------------------------------------------------------------------------------

ui.composer.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = ui.input.value.trim();
  if (!text || current.running) return;
  ui.input.value = '';
  void send({ role: 'user', parts: [{ text }] });
});
ui.input.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey) {
    event.preventDefault();
    ui.composer.requestSubmit();
  }
});
ui.stop.addEventListener('click', () => current.running?.abort());
ui.newSession.addEventListener('click', () => void newSession());
ui.apps.addEventListener('change', () => {
  location.hash = encodeURIComponent(ui.apps.value); // followHash switches the app
});
ui.user.addEventListener('change', () => {
  current.session = '';
  ui.messages.replaceChildren();
  void refreshSessions();
});

let knownApps = [];
let defaultApp = '';

/** Show what the address says: `#<app>` or `#<app>/<session>` (back, forward, shared links). */
async function followHash() {
  const [hashApp, hashSession] = location.hash.slice(1).split('/').map(decodeURIComponent);
  const app = knownApps.includes(hashApp) ? hashApp : current.app || defaultApp;
  if (app !== current.app) {
    current.app = app;
    current.session = '';
    ui.apps.value = app;
    ui.messages.replaceChildren();
  }
  if (hashSession && hashSession !== current.session) {
    await openSession(hashSession).catch(() => refreshSessions());
  } else {
    await refreshSessions();
  }
}

async function main() {
  const config = await fetch('/web-ui/config')
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}));
  if (config.title) {
    ui.title.textContent = config.title;
    document.title = config.title;
  }
  if (config.notice) {
    ui.notice.textContent = config.notice;
    ui.notice.hidden = false;
  }
  const { apps } = await api('/list-apps?detailed=true');
  ui.apps.replaceChildren(
    ...apps.map((app) => {
      const option = el('option', '', app.name);
      option.value = app.name;
      option.title = app.description;
      return option;
    }),
  );
  knownApps = apps.map((app) => app.name);
  defaultApp = knownApps.includes(config.defaultApp) ? config.defaultApp : (knownApps[0] ?? '');
  await followHash();
  window.addEventListener('hashchange', () => void followHash());
  document.body.dataset.ready = 'true';
}

main().catch((error) => note(`⚠ ${error.message}`, 'bubble error'));
