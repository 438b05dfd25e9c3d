import { store } from '../store';
import { drawArtifactsPanel } from './artifacts-panel';
import { guard } from './errors';
import { drawEvalPanel } from './eval-panel';
import { drawEventPanel } from './event-panel';
import { drawGraphPanel } from './graph-panel';
import { closeJobsPanel, drawJobsPanel } from './jobs-panel';
import { closeMemoryPanel, drawMemoryPanel } from './memory-panel';
import { drawStatePanel } from './state-panel';
import { drawTracePanel } from './trace-panel';

type Tab = 'event' | 'state' | 'artifacts' | 'trace' | 'graph' | 'eval' | 'jobs' | 'memory';

const drawers: Record<Tab, () => void | Promise<void>> = {
  event: drawEventPanel,
  state: drawStatePanel,
  artifacts: drawArtifactsPanel,
  trace: drawTracePanel,
  graph: drawGraphPanel,
  eval: drawEvalPanel,
  jobs: drawJobsPanel,
  memory: drawMemoryPanel,
};

let current: Tab = 'state';

/** Draw the visible panel (hidden panels are drawn when shown: no requests for them meanwhile). */
function drawCurrent(): void {
  void guard(`Drawing the ${current} panel`, async () => drawers[current]());
}

/** Show a panel. */
export function showTab(tab: Tab): void {
  // The jobs stream runs only while its tab shows.
  if (current === 'jobs' && tab !== 'jobs') closeJobsPanel();
  if (current === 'memory' && tab !== 'memory') closeMemoryPanel();
  current = tab;
  for (const button of tabButtons()) {
    const active = button.dataset.tab === tab;
    button.classList.toggle('active', active);
    button.setAttribute('aria-selected', String(active));
    // Roving focus: Tab reaches the selected tab only; the arrow keys move between tabs.
    button.tabIndex = active ? 0 : -1;
  }
  for (const panel of document.querySelectorAll<HTMLElement>('.panel')) {
    panel.hidden = panel.dataset.panel !== tab;
  }
  drawCurrent();
}

const tabButtons = () => [...document.querySelectorAll<HTMLElement>('.tabs [role="tab"]')];

/**
 * The tab list's keys (WAI-ARIA tabs, automatic activation): Left and Right move to the previous
 * and next tab (wrapping), Home and End to the first and last, and the tab moved to is shown.
 */
function onTabKey(event: KeyboardEvent): void {
  const buttons = tabButtons();
  const at = buttons.indexOf(event.target as HTMLElement);
  if (at < 0) return;
  const next =
    event.key === 'ArrowRight'
      ? (at + 1) % buttons.length
      : event.key === 'ArrowLeft'
        ? (at - 1 + buttons.length) % buttons.length
        : event.key === 'Home'
          ? 0
          : event.key === 'End'
            ? buttons.length - 1
            : undefined;
  if (next === undefined) return;
  event.preventDefault();
  const target = buttons[next]!;
  showTab(target.dataset.tab as Tab);
  target.focus();
}

/** Wire the tabs and redraw the visible panel when what it shows changes. */
export function setUpTabs(): void {
  for (const button of tabButtons()) {
    button.addEventListener('click', () => showTab(button.dataset.tab as Tab));
  }
  document.querySelector<HTMLElement>('.tabs')?.addEventListener('keydown', onTabKey);
  store.on('session', () => {
    // The state panel needs no request: keep it current even when hidden.
    if (current !== 'state') drawStatePanel();
    drawCurrent();
  });
  store.on('state', drawStatePanel);
  store.on('app', drawCurrent);
  // A turn that ended may have added memories (the ingestion plugin, a memory tool).
  store.on('running', () => {
    if (current === 'memory' && !store.state.running) drawCurrent();
  });
  store.on('select', () => {
    // Selecting an event opens the inspector, unless a panel that highlights it is showing.
    if (current === 'graph' || current === 'trace') drawCurrent();
    else showTab('event');
  });
  showTab(current);
}
