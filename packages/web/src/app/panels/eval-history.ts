import { api } from '../api/client';
import { h } from '../util/dom';
import { formatWhen } from '../util/time';
import {
  caseSummary,
  contentText,
  metricText,
  overallMetrics,
  runsOfSet,
  statusName,
  toolUses,
  type CaseResult,
  type EvalSetRun,
  type Invocation,
  type InvocationResult,
  type MetricResult,
} from './eval-format';

/** Runs of a set shown, newest first (each is one request; older runs stay in the files). */
export const MAX_RUNS_SHOWN = 10;

function metricChips(metrics: MetricResult[]): HTMLElement {
  return h(
    'ul',
    { class: 'metric-scores' },
    ...metrics.map((metric) => {
      const status = statusName(metric.evalStatus ?? metric.eval_status);
      return h(
        'li',
        { class: `metric-score ${status.toLowerCase()}`, 'data-metric': metric.metricName ?? '' },
        metricText(metric),
      );
    }),
  );
}

/** What one side of an invocation said and called: final response, then its tool calls. */
function side(title: string, invocation: Invocation | undefined): HTMLElement {
  const calls = toolUses(invocation);
  return h(
    'div',
    { class: `eval-side ${title.toLowerCase()}` },
    h('h5', {}, title),
    invocation
      ? h('p', { class: 'eval-response' }, contentText(invocation.finalResponse) || '(no text)')
      : h('p', { class: 'muted' }, '(nothing expected: a conversation scenario)'),
    calls.length > 0
      ? h(
          'ul',
          { class: 'eval-tools' },
          ...calls.map((call) =>
            h('li', {}, `${call.name ?? '?'}(${JSON.stringify(call.args ?? {})})`),
          ),
        )
      : null,
  );
}

function invocationBlock(result: InvocationResult, index: number): HTMLElement {
  const user = contentText(
    result.actualInvocation?.userContent ?? result.expectedInvocation?.userContent,
  );
  return h(
    'section',
    { class: 'eval-invocation', 'data-invocation': index + 1 },
    h('h4', {}, `Turn ${index + 1}: `, h('q', {}, user || '(no text)')),
    metricChips(result.evalMetricResults ?? []),
    h(
      'div',
      { class: 'eval-compare' },
      side('Expected', result.expectedInvocation),
      side('Actual', result.actualInvocation),
    ),
  );
}

function caseBlock(result: CaseResult, open: boolean): HTMLElement {
  const { id, status } = caseSummary(result);
  return h(
    'details',
    { class: 'eval-case-result', 'data-case': id, 'data-status': status, open },
    h(
      'summary',
      {},
      h('span', { class: 'eval-case-id' }, id),
      ' ',
      h('span', { class: `status ${status.toLowerCase()}` }, status),
    ),
    metricChips(overallMetrics(result)),
    ...(result.evalMetricResultPerInvocation ?? []).map(invocationBlock),
  );
}

function runBlock(run: EvalSetRun, number: number, open: boolean): HTMLElement {
  const cases = run.evalCaseResults ?? [];
  const passed = cases.filter((result) => caseSummary(result).status === 'PASSED').length;
  const failed = cases.filter((result) => caseSummary(result).status === 'FAILED').length;
  return h(
    'details',
    { class: 'eval-run', 'data-run': run.evalSetResultId, open },
    h(
      'summary',
      {},
      `#${number} · `,
      h('time', {}, run.creationTimestamp ? formatWhen(run.creationTimestamp) : '?'),
      ' · ',
      h('span', { class: passed > 0 ? 'status passed' : '' }, `${passed} passed`),
      ', ',
      h('span', { class: failed > 0 ? 'status failed' : '' }, `${failed} failed`),
    ),
    ...cases.map((result) => caseBlock(result, open && cases.length === 1)),
  );
}

/**
 * The run history of an eval set, newest first (the official `eval_results` routes): each run's
 * cases with their status and metric scores, and per turn the scores, the expected and the
 * actual final response and tool calls. The newest run is open.
 */
export async function drawEvalHistory(
  box: HTMLElement,
  appName: string,
  evalSetId: string,
): Promise<void> {
  const app = `/apps/${encodeURIComponent(appName)}`;
  const ids = await api<string[] | { evalResultIds?: string[] }>(`${app}/eval_results`);
  const all = runsOfSet(Array.isArray(ids) ? ids : (ids.evalResultIds ?? []), appName, evalSetId);
  const shown = all.slice(0, MAX_RUNS_SHOWN);
  const runs = await Promise.all(
    shown.map(({ id }) => api<EvalSetRun>(`${app}/eval_results/${encodeURIComponent(id)}`)),
  );
  box.replaceChildren(
    h('h3', {}, 'Run history'),
    runs.length === 0
      ? h('p', { class: 'muted' }, 'No runs of this set yet.')
      : h(
          'div',
          { class: 'eval-runs' },
          ...runs.map((run, index) => runBlock(run, all.length - index, index === 0)),
        ),
  );
  if (all.length > shown.length)
    box.append(h('p', { class: 'muted' }, `${all.length - shown.length} older runs not shown.`));
}
