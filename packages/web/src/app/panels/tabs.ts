import { store } from '../store';
import { drawArtifactsPanel } from './artifacts-panel';
import { guard } from './errors';
import { drawEvalPanel } from './eval-panel';
import { drawEventPanel } from './event-panel';
import { drawGraphPanel } from './graph-panel';
import { closeJobsPanel, drawJobsPanel } from './jobs-panel';
import { drawStatePanel } from './state-panel';
import { drawTracePanel } from './trace-panel';

type Tab = 'event' | 'state' | 'artifacts' | 'trace' | 'graph' | 'eval' | 'jobs';

const drawers: Record<Tab, () => void | Promise<void>> = {
  event: drawEventPanel,
  state: drawStatePanel,
  artifacts: drawArtifactsPanel,
  trace: drawTracePanel,
  graph: drawGraphPanel,
  eval: drawEvalPanel,
  jobs: drawJobsPanel,
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
  current = tab;
  for (const button of document.querySelectorAll<HTMLElement>('.tabs [data-tab]')) {
    const active = button.dataset.tab === tab;
    button.classList.toggle('active', active);
    button.setAttribute('aria-selected', String(active));
  }
  for (const panel of document.querySelectorAll<HTMLElement>('.panel')) {
    panel.hidden = panel.dataset.panel !== tab;
  }
  drawCurrent();
}

/** Wire the tabs and redraw the visible panel when what it shows changes. */
export function setUpTabs(): void {
  for (const button of document.querySelectorAll<HTMLElement>('.tabs [data-tab]')) {
    button.addEventListener('click', () => showTab(button.dataset.tab as Tab));
  }
  store.on('session', () => {
    // The state panel needs no request: keep it current even when hidden.
    if (current !== 'state') drawStatePanel();
    drawCurrent();
  });
  store.on('app', drawCurrent);
  store.on('select', () => {
    // Selecting an event opens the inspector, unless a panel that highlights it is showing.
    if (current === 'graph' || current === 'trace') drawCurrent();
    else showTab('event');
  });
  showTab(current);
}
