import { ApiError } from '../api/api-error';
import { api, json } from '../api/client';
import { streamFollower } from '../api/follow';
import type { BackgroundJob, JobStreamFrame } from '../api/types';
import { openSession, refreshSessions } from '../sessions/sessions-panel';
import { store } from '../store';
import { byId, h } from '../util/dom';
import { formatWhen } from '../util/time';
import { describeError, guard } from './errors';
import { jobSession, jobStateLabel } from './job-state';

/** Wait before reconnecting a job stream that ended (server restarted, store failed). */
const RECONNECT_MS = 3000;

/** The jobs of the current app and user, by id, as the stream last told. */
const jobs = new Map<string, BackgroundJob>();
let built = false;

const isOpen = (job: BackgroundJob) => job.state === 'pending' || job.state === 'running';

function setStatus(text: string, kind: 'live' | 'off' | 'error' = 'off'): void {
  const status = byId('job-status');
  status.textContent = text;
  status.dataset.kind = kind;
}

/** Build the form and the list once; they stay in the panel across redraws. */
function build(): void {
  if (built) return;
  built = true;
  const message = h('textarea', {
    id: 'job-message',
    rows: 3,
    placeholder: 'A message for the agent to answer in the background',
    'aria-label': 'Background message',
  });
  const priority = h('input', {
    id: 'job-priority',
    type: 'number',
    min: 0,
    step: 1,
    value: 0,
    size: 3,
    'aria-label': 'Priority (lower runs first)',
  });
  const delay = h('input', {
    id: 'job-delay',
    type: 'number',
    min: 0,
    step: 1,
    value: 0,
    size: 4,
    'aria-label': 'Delay in seconds',
  });
  const inSession = h('input', { id: 'job-in-session', type: 'checkbox', checked: true });
  const form = h(
    'form',
    { id: 'job-form', class: 'job-form' },
    message,
    h(
      'div',
      { class: 'row' },
      h('label', { title: 'Lower runs first; 0 is the most urgent' }, 'Priority ', priority),
      h('label', {}, 'Delay (s) ', delay),
      h('label', { id: 'job-in-session-label' }, inSession, ' in the open session'),
      h('button', { id: 'job-submit', type: 'submit' }, 'Run in background'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void guard('Enqueueing the background run', () =>
      enqueue(message, Number(priority.value), Number(delay.value), inSession.checked),
    );
  });
  byId('panel-jobs').replaceChildren(
    h('h2', {}, 'Background runs'),
    form,
    h('p', { id: 'job-status', class: 'job-status muted', 'aria-live': 'polite' }),
    h('ul', { id: 'job-list', class: 'job-list', 'aria-label': 'Background jobs' }),
  );
}

async function enqueue(
  input: HTMLTextAreaElement,
  priority: number,
  delaySeconds: number,
  inSession: boolean,
): Promise<void> {
  const text = input.value.trim();
  if (!text) return;
  const sessionId = inSession ? store.state.sessionId : '';
  const job = await api<BackgroundJob>(
    `${store.userPath}/jobs`,
    json('POST', {
      new_message: { role: 'user', parts: [{ text }] },
      ...(sessionId ? { session_id: sessionId } : {}),
      ...(priority > 0 ? { priority: Math.trunc(priority) } : {}),
      ...(delaySeconds > 0 ? { run_in_ms: Math.round(delaySeconds * 1000) } : {}),
    }),
  );
  input.value = '';
  // The stream brings it too; show it now in case the stream is reconnecting.
  if (!jobs.has(job.id)) jobs.set(job.id, job);
  drawList();
}

async function cancel(job: BackgroundJob): Promise<void> {
  const cancelled = await api<BackgroundJob>(
    `${store.userPath}/jobs/${encodeURIComponent(job.id)}`,
    { method: 'DELETE' },
  );
  jobs.set(cancelled.id, cancelled);
  drawList();
}

/** A job finished or started a session: the session list and the open session may show it. */
function afterChange(job: BackgroundJob, before: BackgroundJob | undefined): void {
  if (before?.state === job.state) return;
  void guard('Loading sessions', refreshSessions);
  const open = store.state.sessionId;
  if (!isOpen(job) && open === jobSession(job) && !store.state.running) {
    void openSession(open); // show the answer the run wrote
  }
}

function apply(frame: JobStreamFrame): void {
  if (frame.error) {
    setStatus(`The job store failed: ${frame.error}`, 'error');
    return;
  }
  if (frame.reset) jobs.clear();
  for (const job of frame.jobs ?? []) {
    const before = jobs.get(job.id);
    jobs.set(job.id, job);
    if (!frame.reset) afterChange(job, before);
  }
  for (const id of frame.removed ?? []) jobs.delete(id);
  drawList();
}

/** The job stream of the current app and user, followed while the tab shows. */
const stream = streamFollower(
  RECONNECT_MS,
  (value) => apply(value as JobStreamFrame),
  (error) => {
    if (error instanceof ApiError && error.status === 501) {
      byId('job-form').hidden = true;
      setStatus(
        'Background runs are off: this server has no job store (adk web and the playground have one by default).',
      );
      return false;
    }
    setStatus(`Job stream: ${describeError(error)}; reconnecting…`, 'error');
    return true;
  },
  (state) =>
    state === 'connecting'
      ? setStatus('Connecting…')
      : state === 'live'
        ? setStatus('Live: states update as workers run the jobs.', 'live')
        : setStatus('The job stream ended; reconnecting…', 'error'),
);

/** Open the stream of the current app and user, closing another one. */
function watch(): void {
  if (store.state.app && stream.open(`${store.userPath}/jobs/stream`)) {
    jobs.clear();
    byId('job-form').hidden = false;
  }
}

function when(label: string, time: number | undefined): HTMLElement | null {
  return time ? h('span', { class: 'job-time' }, `${label} ${formatWhen(time)}`) : null;
}

function jobItem(job: BackgroundJob): HTMLElement {
  const text = job.message.parts.map((part) => part.text ?? '').join(' ');
  const sessionId = jobSession(job);
  // The worker creates `job-<id>` when the first attempt starts.
  const sessionExists = job.sessionId !== undefined || job.attempt > 0;
  const label = jobStateLabel(job);
  return h(
    'li',
    { class: 'job', 'data-job-id': job.id, 'data-state': job.state },
    h(
      'div',
      { class: 'job-head' },
      h('span', { class: `job-state ${job.state}`, title: `state: ${job.state}` }, label),
      h('span', { class: 'job-text', title: text }, text),
    ),
    h(
      'div',
      { class: 'job-meta muted' },
      h('span', { class: 'job-attempts' }, `attempt ${job.attempt}/${job.maxAttempts}`),
      job.priority > 0 ? h('span', {}, `priority ${job.priority}`) : null,
      when('queued', job.createdAt),
      job.state === 'pending' && job.runAt > Date.now() ? when('starts', job.runAt) : null,
      when('started', job.startedAt),
      when(job.state === 'cancelled' ? 'cancelled' : 'finished', job.finishedAt),
    ),
    job.lastError
      ? h(
          'div',
          { class: 'job-error' },
          `${job.lastError.code ?? job.lastError.name}: ${job.lastError.message}`,
        )
      : null,
    job.result?.finalText ? h('div', { class: 'job-answer' }, job.result.finalText) : null,
    h(
      'div',
      { class: 'job-actions' },
      sessionExists
        ? h(
            'a',
            {
              class: 'job-session',
              href: `#${encodeURIComponent(job.appName)}/${encodeURIComponent(sessionId)}`,
              title: sessionId,
            },
            sessionId === store.state.sessionId ? 'Open session (open now)' : 'Open session',
          )
        : null,
      isOpen(job)
        ? h(
            'button',
            {
              type: 'button',
              class: 'job-cancel',
              onclick: () => void guard('Cancelling the job', () => cancel(job)),
            },
            'Cancel',
          )
        : null,
    ),
  );
}

function drawList(): void {
  const list = document.getElementById('job-list');
  if (!list) return;
  const items = [...jobs.values()]
    .filter((job) => job.appName === store.state.app)
    .sort((a, b) => b.createdAt - a.createdAt)
    .map(jobItem);
  list.replaceChildren(
    ...(items.length > 0 ? items : [h('li', { class: 'empty muted' }, 'No background runs yet.')]),
  );
  const session = store.state.sessionId;
  const checkbox = byId<HTMLInputElement>('job-in-session');
  checkbox.disabled = !session;
  byId('job-in-session-label').title = session
    ? `Run in session ${session}`
    : 'No session is open: the run gets its own session, job-<id>';
}

/**
 * The Jobs tab: enqueue a background run of the selected app (in the open session, or its own),
 * and follow the user's jobs live through `GET /apps/{app}/users/{user}/jobs/stream`.
 */
export function drawJobsPanel(): void {
  build();
  watch();
  drawList();
}

/** Stop following the jobs (the tab is hidden): the server stops scanning for this page. */
export const closeJobsPanel = stream.close;
