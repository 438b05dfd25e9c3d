import { api, json } from '../api/client';
import type { Session } from '../api/types';
import { stateDelta } from '../sessions/session-title';
import { store } from '../store';
import { byId, h } from '../util/dom';
import { describeError, guard } from './errors';

/**
 * The session state, editable: Save sends the difference as a state delta
 * (`PATCH .../sessions/{id}`), which the server stores as an event.
 */
export function drawStatePanel(): void {
  const panel = byId('panel-state');
  const session = store.state.session;
  if (!session) {
    panel.replaceChildren(
      h('h2', {}, 'Session state'),
      h('pre', { id: 'state-view' }, '{}'),
      h('p', { class: 'muted' }, 'No session yet.'),
    );
    return;
  }
  const original = session.state ?? {};
  const view = h(
    'pre',
    { id: 'state-view', 'aria-label': 'Session state' },
    JSON.stringify(original, null, 2),
  );
  const editor = h('textarea', {
    id: 'state-editor',
    class: 'state-editor',
    rows: 14,
    'aria-label': 'Edit session state',
    spellcheck: 'false',
  });
  editor.value = JSON.stringify(original, null, 2);
  const message = h('p', { class: 'state-message' });
  const form = h(
    'div',
    { class: 'state-form', hidden: true },
    editor,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'button', id: 'state-save', onclick: () => void save() }, 'Save'),
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            form.hidden = true;
            view.hidden = false;
          },
        },
        'Cancel',
      ),
    ),
  );
  const save = async () => {
    let next: Record<string, unknown>;
    try {
      const parsed = JSON.parse(editor.value) as unknown;
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new SyntaxError('the state must be a JSON object');
      next = parsed as Record<string, unknown>;
    } catch (error) {
      message.className = 'state-message error';
      message.textContent = `Not saved: ${describeError(error)}`;
      return;
    }
    const delta = stateDelta(original, next);
    if (Object.keys(delta).length === 0) {
      message.textContent = 'Nothing changed.';
      return;
    }
    const updated = await guard('Saving the state', () =>
      api<Session>(store.sessionPath, json('PATCH', { state_delta: delta })),
    );
    if (!updated) return;
    store.state.session = await api<Session>(store.sessionPath);
    store.emit('session');
  };
  panel.replaceChildren(
    h('h2', {}, 'Session state'),
    view,
    form,
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          type: 'button',
          id: 'state-edit',
          onclick: () => {
            form.hidden = false;
            view.hidden = true;
            editor.focus();
          },
        },
        'Edit',
      ),
    ),
    message,
    h(
      'p',
      { class: 'muted' },
      `${session.id} · ${session.events.length} events. Saving stores the change as an event (a state delta), as tools and agents do.`,
    ),
  );
}
