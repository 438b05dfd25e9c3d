import { ApiError } from '../api/api-error';
import { api } from '../api/client';
import { streamFollower } from '../api/follow';
import { store } from '../store';
import { byId, h } from '../util/dom';
import { formatWhen } from '../util/time';
import { guard } from './errors';

/** One memory as `GET /apps/{app}/users/{user}/memories` sends it. */
interface Memory {
  id: string;
  text: string;
  session_id: string | null;
  timestamp: number;
}

/** The most memories the panel lists (the route's page; newest first). */
const LIMIT = 200;
/** Wait before following the memory stream again after it ended or failed. */
const RECONNECT_MS = 2000;

/**
 * The memory stream (`GET .../memories/stream`), followed while the tab shows: each frame after
 * the first means the memories changed (a background extraction finished, a tool stored a fact,
 * another tab deleted one), and the list is drawn again. A server without the stream (or without
 * listing) ends the watch.
 */
const stream = streamFollower(
  RECONNECT_MS,
  (frame) => {
    if (!(frame as { reset?: boolean }).reset) void draw(false);
  },
  (error) => !(error instanceof ApiError) || error.status === 503,
);

/** Stop following the memories (the tab is hidden). */
export const closeMemoryPanel = stream.close;

function empty(text: string): HTMLElement {
  return h('p', { class: 'memory-empty muted' }, text);
}

async function remove(path: string, label: string): Promise<void> {
  await guard(label, () => api(path, { method: 'DELETE' }));
  await draw(false);
}

function item(memory: Memory): HTMLElement {
  const app = store.state.app;
  const session = memory.session_id;
  return h(
    'li',
    { class: 'job memory', 'data-memory-id': memory.id },
    h('div', { class: 'memory-text' }, memory.text),
    h(
      'div',
      { class: 'job-meta muted' },
      h('span', {}, formatWhen(memory.timestamp)),
      session
        ? h(
            'a',
            { href: `#${encodeURIComponent(app)}/${encodeURIComponent(session)}`, title: session },
            `session ${session}`,
          )
        : null,
      h(
        'button',
        {
          type: 'button',
          class: 'memory-delete',
          'aria-label': `Delete memory: ${memory.text}`,
          onclick: () =>
            void remove(
              `${store.userPath}/memories/${encodeURIComponent(memory.id)}`,
              'Deleting the memory',
            ),
        },
        'Delete',
      ),
    ),
  );
}

/**
 * The Memory tab: the current user's long-term memories in the selected app (text, when, which
 * session), with a delete per memory and one for all of them, kept current while it shows by the
 * server's memory stream (memories a background extraction adds appear without a reload). Apps
 * whose memory service cannot list memories (none, or one without `listMemories`) show why the
 * list is empty.
 */
export function drawMemoryPanel(): Promise<void> {
  return draw(true);
}

async function draw(follow: boolean): Promise<void> {
  const panel = byId('panel-memory');
  const title = h('h2', {}, 'Memories');
  if (!store.state.app) {
    closeMemoryPanel();
    panel.replaceChildren(title, empty('No app is selected.'));
    return;
  }
  const path = `${store.userPath}/memories`;
  let memories: Memory[];
  try {
    ({ memories } = await api<{ memories: Memory[] }>(`${path}?limit=${LIMIT}`));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 501)) {
      closeMemoryPanel();
      panel.replaceChildren(
        title,
        empty(
          error.status === 400
            ? 'This app has no memory service: nothing is remembered across sessions.'
            : 'This memory service cannot list memories (SemanticMemoryService of @adk/memory can).',
        ),
      );
      return;
    }
    throw error;
  }
  if (follow) stream.open(`${path}/stream?limit=${LIMIT}`);
  if (memories.length === 0) {
    panel.replaceChildren(title, empty(`No memories of ${store.state.user || 'user'} yet.`));
    return;
  }
  const clear = h(
    'button',
    {
      type: 'button',
      id: 'memory-delete-all',
      onclick: () => {
        if (confirm(`Forget all ${memories.length} memories of this user in this app?`))
          void remove(path, 'Deleting the memories');
      },
    },
    'Delete all',
  );
  panel.replaceChildren(
    title,
    clear,
    h('ul', { class: 'job-list memory-list', 'aria-label': 'Memories' }, ...memories.map(item)),
  );
}
