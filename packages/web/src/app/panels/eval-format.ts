import type { Content } from '../api/types';

/** One metric result, in the official server's JSON (camelCase, or snake_case from older ones). */
export interface MetricResult {
  metricName?: string;
  metric_name?: string;
  score?: number | null;
  threshold?: number;
  evalStatus?: number | string;
  eval_status?: number | string;
}

/** A tool call recorded in an invocation. */
export interface ToolUse {
  name?: string;
  args?: Record<string, unknown>;
}

/** One turn of an eval case (Python's `Invocation`), as the results carry it. */
export interface Invocation {
  invocationId?: string;
  userContent?: Content;
  finalResponse?: Content;
  intermediateData?: {
    toolUses?: ToolUse[];
    invocationEvents?: { author?: string; content?: Content }[];
  };
}

/** The scores of one invocation, with what was expected and what the agent did. */
export interface InvocationResult {
  actualInvocation?: Invocation;
  expectedInvocation?: Invocation;
  evalMetricResults?: MetricResult[];
}

/** One case of a run (`EvalCaseResult`; `run_eval` answers the same without the session). */
export interface CaseResult {
  evalId?: string;
  eval_id?: string;
  finalEvalStatus?: number | string;
  final_eval_status?: number | string;
  overallEvalMetricResults?: MetricResult[];
  overall_eval_metric_results?: MetricResult[];
  evalMetricResultPerInvocation?: InvocationResult[];
  sessionId?: string;
}

/** A stored run of an eval set (`EvalSetResult`, from `GET .../eval_results/{id}`). */
export interface EvalSetRun {
  evalSetResultId: string;
  evalSetId: string;
  evalCaseResults?: CaseResult[];
  /** Seconds since the epoch. */
  creationTimestamp?: number;
}

/** `PASSED`, `FAILED` or `NOT_EVALUATED` from the enum number (1, 2, 3) or name. */
export function statusName(status: number | string | undefined): string {
  if (typeof status === 'string') return status.replace(/^EvalStatus\./, '');
  return status === 1 ? 'PASSED' : status === 2 ? 'FAILED' : 'NOT_EVALUATED';
}

/** A case's id and final status, whichever spelling the server used. */
export function caseSummary(result: CaseResult): { id: string; status: string } {
  return {
    id: result.evalId ?? result.eval_id ?? '?',
    status: statusName(result.finalEvalStatus ?? result.final_eval_status),
  };
}

/** A case's overall metric results, whichever spelling the server used. */
export function overallMetrics(result: CaseResult): MetricResult[] {
  return result.overallEvalMetricResults ?? result.overall_eval_metric_results ?? [];
}

/** `tool_trajectory_avg_score: 1.00 / 1 (PASSED)`. */
export function metricText(metric: MetricResult): string {
  const score = metric.score === null || metric.score === undefined ? '—' : metric.score.toFixed(2);
  return `${metric.metricName ?? metric.metric_name}: ${score} / ${metric.threshold ?? '?'} (${statusName(metric.evalStatus ?? metric.eval_status)})`;
}

/** The text of a content's parts (thoughts left out). */
export function contentText(content: Content | undefined): string {
  return (content?.parts ?? [])
    .filter((part) => part.text && !part.thought)
    .map((part) => part.text)
    .join('');
}

/** The tool calls of an invocation: its `toolUses`, or the calls among its events. */
export function toolUses(invocation: Invocation | undefined): ToolUse[] {
  const data = invocation?.intermediateData;
  if (data?.toolUses) return data.toolUses;
  return (data?.invocationEvents ?? []).flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      part.functionCall ? [{ name: part.functionCall.name, args: part.functionCall.args }] : [],
    ),
  );
}

/**
 * The runs of `evalSetId` among the app's result ids, newest first. Ids are
 * `<app>_<set>_<seconds>` (Python ADK's naming), so a set's runs are found without fetching the
 * others.
 */
export function runsOfSet(
  ids: readonly string[],
  appName: string,
  evalSetId: string,
): { id: string; seconds: number }[] {
  const prefix = `${appName}_${evalSetId}_`;
  return ids
    .filter((id) => id.startsWith(prefix) && /^\d+(\.\d+)?$/.test(id.slice(prefix.length)))
    .map((id) => ({ id, seconds: Number(id.slice(prefix.length)) }))
    .sort((a, b) => b.seconds - a.seconds);
}
