import { errorOf, json, api, authHeaders } from '../api/client';
import { unreachable } from '../api/api-error';
import { readFrames } from '../api/sse';
import type { AdkEvent, Content, Part, Session } from '../api/types';
import { showError } from '../panels/errors';
import {
  applyStateDelta,
  displayName,
  nameDelta,
  nameFromMessage,
} from '../sessions/session-title';
import { store } from '../store';
import { byId, h } from '../util/dom';
import { attachmentParts, hasAttachments, setUpAttachments, takeAttachments } from './attachments';
import {
  bubble,
  errorBubble,
  markEventBlock,
  note,
  renderEvent,
  type RenderHooks,
} from './render-event';

const messages = () => byId('messages');

/** Live bubbles of streamed (partial) text, by author. */
const live = new Map<string, HTMLElement>();
const answered = new Set<string>();
let pendingBubble: HTMLElement | undefined;

function scrollDown(): void {
  const box = messages();
  box.scrollTop = box.scrollHeight;
}

function decodeText(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The render hooks of the conversation (also used by the live transcript). */
export const chatHooks: RenderHooks = {
  answered,
  confirm: (call, confirmed) => {
    messages().append(note(confirmed ? '✔ approved' : '✘ rejected', 'note local-user'));
    void sendMessage({
      role: 'user',
      parts: [{ functionResponse: { id: call.id, name: call.name, response: { confirmed } } }],
    });
  },
  deadline: (requestId, at, passed) => {
    // A little after the deadline, show it passed and reload until the server's denial is there.
    const session = store.state.sessionId;
    let tries = 0;
    const check = (): void => {
      if (store.state.sessionId !== session) return;
      passed();
      void reloadSession()
        .catch(() => undefined)
        .then(() => {
          const open = !answered.has(requestId);
          if (open && ++tries < 30 && store.state.sessionId === session) setTimeout(check, 2_000);
        });
    };
    setTimeout(check, Math.max(at - Date.now(), 0) + 1_000);
  },
  loadArtifact: async (name, version) => {
    const part = await api<Part>(
      `${store.sessionPath}/artifacts/${encodeURIComponent(name)}?version=${version}`,
    );
    if (part.text !== undefined) return part.text;
    if (part.inlineData?.data) return decodeText(part.inlineData.data);
    return JSON.stringify(part, null, 2);
  },
};

function append(nodes: HTMLElement[]): void {
  messages().append(...nodes);
}

/** The session on screen and the events drawn for it (by id). */
let shownSession = '';
const shown = new Set<string>();

function drawEvent(event: AdkEvent): void {
  shown.add(event.id);
  append(renderEvent(event, chatHooks));
}

/**
 * Show a session: every event, answered approvals without buttons. The session already on screen
 * only gets the events it lacks (a reload after a turn keeps open blocks and the scroll position);
 * the user's own message, drawn when sent, gets its event id.
 */
export function renderSession(session: Session | undefined): void {
  if (session && session.id === shownSession) {
    for (const event of session.events) {
      if (shown.has(event.id)) continue;
      const local =
        event.author === 'user'
          ? messages().querySelectorAll<HTMLElement>('.local-user')
          : undefined;
      if (local && local.length > 0) {
        shown.add(event.id);
        for (const node of local) {
          node.classList.remove('local-user');
          markEventBlock(node, event.id);
        }
      } else drawEvent(event);
    }
    markSelected();
    return;
  }
  live.clear();
  answered.clear();
  shown.clear();
  shownSession = session?.id ?? '';
  messages().replaceChildren();
  if (!session) return;
  for (const event of session.events) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionResponse?.name === 'adk_request_confirmation' && part.functionResponse.id)
        answered.add(part.functionResponse.id);
    }
  }
  for (const event of session.events) drawEvent(event);
  markSelected();
  scrollDown();
}

function markSelected(): void {
  for (const node of messages().querySelectorAll<HTMLElement>('.event-block')) {
    node.classList.toggle('selected', node.dataset.eventId === store.state.selectedEventId);
  }
}

function showPending(): void {
  pendingBubble ??= h('div', { class: 'bubble agent pending' }, 'working…');
  messages().append(pendingBubble);
}

function clearPending(): void {
  pendingBubble?.remove();
  pendingBubble = undefined;
}

function setRunning(controller: AbortController | undefined): void {
  store.state.running = controller;
  byId<HTMLButtonElement>('send').disabled = Boolean(controller);
  byId('stop').hidden = !controller;
  store.emit('running');
}

/** Handle one frame of `/run_sse`. */
function onEvent(event: AdkEvent, firstToken: { seen: boolean }): void {
  clearPending();
  if (event.error && !event.content) {
    const block = errorBubble(event.errorCode, event.errorMessage ?? event.error);
    messages().append(block);
    block.scrollIntoView({ block: 'nearest' });
    return;
  }
  if (event.author === 'user') return;
  const parts = event.content?.parts ?? [];
  if (event.partial) {
    const text = parts
      .filter((part) => part.text && !part.thought)
      .map((part) => part.text)
      .join('');
    if (!text) return;
    let node = live.get(event.author);
    if (!node) {
      node = bubble(event.author, '', 'streaming');
      live.set(event.author, node);
      messages().append(node);
    }
    node.querySelector('.text')!.textContent += text;
    if (!firstToken.seen) {
      firstToken.seen = true;
      performance.mark('adk-first-token');
    }
  } else {
    live.get(event.author)?.remove();
    live.delete(event.author);
    shown.add(event.id);
    const nodes = renderEvent(event, chatHooks);
    append(nodes);
    const session = store.state.session;
    if (session) {
      session.events.push(event);
      // The State panel is current as each event lands, not only once the turn's reload is back.
      if (applyStateDelta(session.state, event.actions?.stateDelta)) store.emit('state');
    }
    const failed = nodes.find((node) => node.classList.contains('error'));
    failed?.scrollIntoView({ block: 'nearest' });
    showPending();
  }
  scrollDown();
}

/** Create the session when none is open (the first message of a new conversation). */
export async function ensureSession(): Promise<void> {
  if (store.state.sessionId) return;
  const session = await api<Session>(`${store.userPath}/sessions`, json('POST', {}));
  store.state.sessionId = session.id;
  store.state.session = session;
  shownSession = session.id;
  location.hash = `${encodeURIComponent(store.state.app)}/${encodeURIComponent(session.id)}`;
}

/** Draw the open session anew from its stored events (after a live run, the stored transcript). */
export function redrawSession(): void {
  shownSession = '';
  renderSession(store.state.session);
}

/** Reload the open session from the server and tell the panels. */
export async function reloadSession(): Promise<void> {
  if (!store.state.sessionId) return;
  store.state.session = await api<Session>(store.sessionPath);
  store.emit('session');
}

/** Run one turn with `message` over `/run_sse`, streaming it into the conversation. */
export async function sendMessage(message: Content, files: File[] = []): Promise<void> {
  if (store.state.running) return;
  const controller = new AbortController();
  setRunning(controller);
  // Time to first token shown: from here to the first streamed text on screen (PERFORMANCE.md).
  performance.clearMarks('adk-send');
  performance.clearMarks('adk-first-token');
  performance.mark('adk-send');
  const firstToken = { seen: false };
  let failed = false;
  try {
    await ensureSession();
    if (files.length > 0) {
      message.parts.push(
        ...(await attachmentParts(files, async (name, artifact) => {
          const saved = await api<{ version: number }>(
            `${store.sessionPath}/artifacts`,
            json('POST', { filename: name, artifact }),
          );
          return saved.version;
        })),
      );
    }
    const text = message.parts.map((part) => part.text ?? '').join('');
    // A session's first message names it, stored where the official UI reads and writes names
    // (it names the sessions it creates the same way).
    const session = store.state.session;
    const naming =
      text.trim() &&
      session &&
      !displayName(session.state) &&
      !session.events.some((event) => event.author === 'user')
        ? nameDelta(session.state, nameFromMessage(text))
        : undefined;
    // Drawn now; the event id comes with the session reload after the turn.
    if (text) messages().append(bubble('user', text, 'local-user'));
    for (const part of message.parts) {
      if (part.inlineData)
        messages().append(
          note(`attached: ${part.inlineData.displayName ?? 'file'}`, 'note attachment local-user'),
        );
    }
    showPending();
    scrollDown();
    let response: Response;
    try {
      response = await fetch('/run_sse', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'text/event-stream',
          ...authHeaders(),
        },
        body: JSON.stringify({
          app_name: store.state.app,
          user_id: store.state.user || 'user',
          session_id: store.state.sessionId,
          new_message: message,
          streaming: true,
          // Stop means stop: without it the server lets the run finish for a reconnect.
          abort_on_disconnect: true,
          ...(naming ? { state_delta: naming } : {}),
        }),
        signal: controller.signal,
      });
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw unreachable('POST /run_sse', location.origin);
    }
    if (!response.ok) throw await errorOf(response, 'POST /run_sse');
    await readFrames(response, (frame) => onEvent(frame as AdkEvent, firstToken));
  } catch (error) {
    clearPending();
    if ((error as Error).name === 'AbortError') messages().append(note('Stopped.'));
    else {
      failed = true;
      showError(error, 'Running the agent');
    }
  } finally {
    clearPending();
    for (const node of live.values()) node.classList.remove('streaming');
    live.clear();
    // The session as stored (state included) is on the page before Send is enabled again.
    // After a failed run the reload would only repeat the same error.
    await reloadSession().catch((error: unknown) => {
      if (!failed) showError(error, 'Reloading the session');
    });
    setRunning(undefined);
  }
}

/** Wire the composer: Enter sends, Shift+Enter breaks the line, Stop aborts, files attach. */
export function setUpChat(): void {
  setUpAttachments();
  const input = byId<HTMLTextAreaElement>('message-input');
  const composer = byId<HTMLFormElement>('composer');
  composer.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (store.takeText?.(text)) {
      input.value = '';
      return;
    }
    if ((!text && !hasAttachments()) || store.state.running) return;
    input.value = '';
    void sendMessage({ role: 'user', parts: text ? [{ text }] : [] }, takeAttachments());
  });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey) {
      event.preventDefault();
      composer.requestSubmit();
    }
  });
  byId('stop').addEventListener('click', () => store.state.running?.abort());
  messages().addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    if (target.closest('button, a')) return;
    const block = target.closest<HTMLElement>('.event-block');
    if (block?.dataset.eventId) store.select(block.dataset.eventId);
  });
  // From the keyboard: Enter or Space on a focused block opens it and moves the focus into the
  // panel that shows it (the inspector, or the trace or graph when one of them is showing).
  messages().addEventListener('keydown', (event) => {
    const block = event.target as HTMLElement;
    if ((event.key !== 'Enter' && event.key !== ' ') || !block.matches('.event-block[tabindex]'))
      return;
    if (!block.dataset.eventId) return;
    event.preventDefault();
    store.select(block.dataset.eventId);
    document.querySelector<HTMLElement>('.panel:not([hidden])')?.focus();
  });
  store.on('select', markSelected);
}
