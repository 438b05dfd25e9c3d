import { api, json } from '../api/client';
import { store } from '../store';
import { byId, h } from '../util/dom';
import { describeError, guard } from './errors';
import { caseSummary, metricText, overallMetrics, type CaseResult } from './eval-format';
import { drawEvalHistory } from './eval-history';

/** The metrics offered, with the official names and default thresholds. */
export const METRICS = [
  { name: 'tool_trajectory_avg_score', threshold: 1, label: 'Tool trajectory' },
  { name: 'response_match_score', threshold: 0.8, label: 'Response match (ROUGE-1)' },
] as const;

const appPath = () => `/apps/${encodeURIComponent(store.state.app)}`;
let selectedSet = '';

async function listSets(): Promise<string[]> {
  const body = await api<string[] | { evalSetIds?: string[] }>(`${appPath()}/eval_sets`);
  return Array.isArray(body) ? body : (body.evalSetIds ?? []);
}

function resultsTable(results: CaseResult[]): HTMLElement {
  return h(
    'table',
    { class: 'eval-results' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Case'), h('th', {}, 'Result'), h('th', {}, 'Metrics'))),
    h(
      'tbody',
      {},
      ...results.map((result) => {
        const { id, status } = caseSummary(result);
        return h(
          'tr',
          { 'data-status': status },
          h('td', {}, id),
          h('td', { class: `status ${status.toLowerCase()}` }, status),
          h('td', {}, overallMetrics(result).map(metricText).join('; ')),
        );
      }),
    ),
  );
}

async function drawCases(box: HTMLElement): Promise<void> {
  if (!selectedSet) {
    box.replaceChildren();
    return;
  }
  const base = `${appPath()}/eval_sets/${encodeURIComponent(selectedSet)}`;
  const cases = await api<string[]>(`${base}/evals`);
  const caseId = h('input', {
    class: 'eval-case-id',
    placeholder: 'case id',
    'aria-label': 'New case id',
    value: `case_${cases.length + 1}`,
  });
  const metricInputs = METRICS.map((metric) => ({
    metric,
    checkbox: h('input', { type: 'checkbox', checked: true, 'aria-label': metric.label }),
    threshold: h('input', {
      type: 'number',
      step: '0.05',
      min: '0',
      max: '1',
      value: metric.threshold,
      class: 'threshold',
      'aria-label': `${metric.label} threshold`,
    }),
  }));
  const checks = cases.map((id) => ({
    id,
    box: h('input', { type: 'checkbox', checked: true, 'aria-label': `Run ${id}` }),
  }));
  const results = h('div', { class: 'eval-output' });
  const history = h('div', { class: 'eval-history' });
  const showHistory = () =>
    drawEvalHistory(history, store.state.app, selectedSet).catch((error: unknown) =>
      history.replaceChildren(h('p', { class: 'error' }, describeError(error))),
    );
  const run = async () => {
    results.replaceChildren(h('p', { class: 'muted' }, 'Running…'));
    try {
      const output = await api<CaseResult[]>(
        `${base}/run_eval`,
        json('POST', {
          eval_ids: checks.filter((check) => check.box.checked).map((check) => check.id),
          eval_metrics: metricInputs
            .filter((input) => input.checkbox.checked)
            .map((input) => ({
              metric_name: input.metric.name,
              threshold: Number(input.threshold.value),
            })),
        }),
      );
      results.replaceChildren(resultsTable(output));
    } catch (error) {
      results.replaceChildren(h('p', { class: 'error' }, describeError(error)));
    }
    await showHistory();
  };
  box.replaceChildren(
    h('h3', {}, `Cases of ${selectedSet}`),
    h(
      'ul',
      { class: 'eval-cases' },
      ...(checks.length > 0
        ? checks.map((check) => h('li', {}, h('label', {}, check.box, ` ${check.id}`)))
        : [h('li', { class: 'muted' }, 'No cases yet: add the open session as one.')]),
    ),
    h(
      'div',
      { class: 'row' },
      caseId,
      h(
        'button',
        {
          type: 'button',
          class: 'add-session',
          disabled: !store.state.sessionId,
          onclick: () =>
            void guard('Adding the session to the eval set', async () => {
              await api(
                `${base}/add_session`,
                json('POST', {
                  eval_id: caseId.value.trim(),
                  session_id: store.state.sessionId,
                  user_id: store.state.user,
                }),
              );
              await drawCases(box);
            }),
        },
        'Add current session',
      ),
    ),
    h('h3', {}, 'Metrics'),
    ...metricInputs.map((input) =>
      h('label', { class: 'metric' }, input.checkbox, ` ${input.metric.label} ≥ `, input.threshold),
    ),
    h(
      'div',
      { class: 'row' },
      h(
        'button',
        {
          type: 'button',
          class: 'run-eval',
          disabled: checks.length === 0,
          onclick: () => void run(),
        },
        'Run eval',
      ),
    ),
    results,
    history,
  );
  await showHistory();
}

/** Eval sets of the app (the official `/apps/{app}/eval_sets` routes): cases, run, results. */
export async function drawEvalPanel(): Promise<void> {
  const panel = byId('panel-eval');
  if (!store.state.app) return;
  try {
    const sets = await listSets();
    if (!sets.includes(selectedSet)) selectedSet = sets[0] ?? '';
    const casesBox = h('div', { class: 'eval-cases-box' });
    const select = h(
      'select',
      { class: 'eval-set', 'aria-label': 'Eval set' },
      ...sets.map((id) => h('option', { value: id, selected: id === selectedSet }, id)),
    );
    select.addEventListener('change', () => {
      selectedSet = select.value;
      void drawCases(casesBox).catch((error: unknown) =>
        casesBox.replaceChildren(h('p', { class: 'error' }, describeError(error))),
      );
    });
    const newName = h('input', {
      class: 'eval-set-name',
      placeholder: 'new eval set id',
      'aria-label': 'New eval set id',
    });
    panel.replaceChildren(
      h('h2', {}, 'Evaluation'),
      h(
        'div',
        { class: 'row' },
        sets.length > 0 ? select : h('span', { class: 'muted' }, 'No eval sets.'),
        newName,
        h(
          'button',
          {
            type: 'button',
            class: 'create-eval-set',
            onclick: () =>
              void guard('Creating the eval set', async () => {
                const id = newName.value.trim();
                if (!id) return;
                await api(`${appPath()}/eval_sets/${encodeURIComponent(id)}`, { method: 'POST' });
                selectedSet = id;
                await drawEvalPanel();
              }),
          },
          'Create',
        ),
      ),
      casesBox,
    );
    await drawCases(casesBox);
  } catch (error) {
    panel.replaceChildren(
      h('h2', {}, 'Evaluation'),
      h('p', { class: 'error' }, describeError(error)),
    );
  }
}
