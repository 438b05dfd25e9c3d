import { withIdSource, type Model } from '@adk/core';

import { EvalNotFoundError } from '../errors/eval-not-found-error';
import { DEFAULT_EVAL_CONFIG, metricsFromConfig } from '../formats/eval-config-file';
import type { EvaluationResult } from '../metrics/evaluator';
import { MetricRegistry, metricContext } from '../metrics/metric-registry';
import type {
  EvalCase,
  EvalCaseResult,
  EvalMetric,
  EvalMetricResult,
  EvalMetricResultPerInvocation,
  EvalSet,
  EvalStatus,
} from '../schema';
import { mapConcurrent } from './concurrency';
import type { EvalTarget } from './eval-target';
import { derivedIdSource, derivedUuid } from './derived-ids';
import { ModelCallLog } from './model-call-log';
import { EVAL_SESSION_ID_PREFIX, runInference } from './run-inference';
import type { UserSimulator } from './user-simulator';

/** Progress of an eval run, reported after each case run. */
export interface EvalProgress {
  done: number;
  total: number;
  evalId: string;
  run: number;
  status: EvalStatus;
}

/** Options of {@link evaluateEvalSet}. */
export interface EvaluateEvalSetOptions {
  /** The app under evaluation. */
  target: EvalTarget;
  evalSet: EvalSet;
  /** Metrics with thresholds; default Python's (`tool_trajectory_avg_score` 1.0, `response_match_score` 0.8). */
  metrics?: readonly EvalMetric[];
  /** Only these cases (default all). */
  caseIds?: readonly string[];
  /** Times each case is run (default 1); every run is one case result. */
  numRuns?: number;
  /** Case runs in flight at once (default 4). */
  concurrency?: number;
  /** Metrics by name (default: the built-in ones). */
  registry?: MetricRegistry;
  /** The judge of LLM-judged metrics: a model, or one per model name (default: core's model registry). */
  judgeModel?: Model | ((name: string) => Model);
  /** Plays the user of conversation-scenario cases. */
  userSimulator?: UserSimulator;
  /**
   * Derive every id of a case run (session, invocations, events, function calls) from the eval
   * set id, the case id, the run's index and a counter instead of drawing them at random, so that
   * runs of a deterministic agent (replayed from a cassette) give identical results apart from
   * timestamps. An eval session left by an earlier run under the same id is replaced. Default
   * false; `evaluate` turns it on when it replays a cassette.
   */
  deterministicIds?: boolean;
  onProgress?(progress: EvalProgress): void;
  signal?: AbortSignal;
}

/** One metric of one case, over every run. */
export interface MetricSummary {
  metricName: string;
  threshold: number;
  /** Mean of the runs' scores (absent when no run produced one). */
  score?: number;
  evalStatus: EvalStatus;
}

/** One case over every run. */
export interface CaseSummary {
  evalId: string;
  runs: number;
  evalStatus: EvalStatus;
  metrics: MetricSummary[];
  /**
   * Why runs of the case could not be scored (a model call failed: a replay miss, a missing key,
   * a provider error; or the agent threw), one per failed run. Such a case is FAILED, its metrics
   * NOT_EVALUATED: an error is never reported as a score of 0.
   */
  errors: string[];
}

/** What {@link evaluateEvalSet} returns: Python's case results plus a per-case summary. */
export interface EvalSetOutcome {
  evalSetId: string;
  appName: string;
  /** One per case and run, as Python ADK's `EvalCaseResult`. */
  evalCaseResults: EvalCaseResult[];
  /** Per case: each metric's mean score over the runs against its threshold. */
  cases: CaseSummary[];
  /** True when no case failed. */
  passed: boolean;
}

function finalStatus(statuses: readonly EvalStatus[]): EvalStatus {
  if (statuses.includes(2)) return 2;
  return statuses.includes(1) ? 1 : 3;
}

function metricResult(
  metric: EvalMetric,
  score: number | undefined,
  evalStatus: EvalStatus,
  result?: EvaluationResult,
): EvalMetricResult {
  return {
    ...metric,
    ...(score === undefined ? {} : { score }),
    evalStatus,
    ...(result?.overallRubricScores
      ? { details: { rubricScores: result.overallRubricScores } }
      : {}),
  };
}

async function evaluateCase(
  options: EvaluateEvalSetOptions,
  evalCase: EvalCase,
  metrics: readonly EvalMetric[],
  registry: MetricRegistry,
  modelCalls: ModelCallLog,
  run: number,
): Promise<EvalCaseResult> {
  const context = metricContext(options.judgeModel);
  const base = {
    evalSetFile: options.evalSet.evalSetId,
    evalSetId: options.evalSet.evalSetId,
    evalId: evalCase.evalId,
    evalMetricResults: [],
  };
  const seed = `${options.evalSet.evalSetId}\u0000${evalCase.evalId}\u0000${run}`;
  const infer = () =>
    runInference(options.target, evalCase, {
      modelCalls,
      ...(options.userSimulator ? { userSimulator: options.userSimulator } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.deterministicIds
        ? {
            sessionId: `${EVAL_SESSION_ID_PREFIX}${derivedUuid(seed, 'session')}`,
            freshSession: true,
          }
        : {}),
    });
  let inference;
  try {
    inference = await (options.deterministicIds
      ? withIdSource(derivedIdSource(seed), infer)
      : infer());
  } catch (error) {
    return {
      ...base,
      finalEvalStatus: 2,
      overallEvalMetricResults: metrics.map((m) => metricResult(m, undefined, 3)),
      evalMetricResultPerInvocation: [],
      sessionId: '',
      error: `Inference failed: ${(error as Error)?.message ?? String(error)}`,
    };
  }
  const expected = evalCase.conversation;
  // A metric that throws (a judge answer it cannot read) is the case's error, never a score.
  const metricErrors: string[] = [];
  const results = await Promise.all(
    metrics.map((metric) =>
      registry
        .create(metric, context)
        .evaluate({
          actual: inference.invocations,
          ...(expected ? { expected } : {}),
          ...(evalCase.conversationScenario
            ? { conversationScenario: evalCase.conversationScenario }
            : {}),
          evalCase,
          ...(options.signal ? { signal: options.signal } : {}),
        })
        .catch((error: unknown): EvaluationResult => {
          metricErrors.push(
            `Metric ${metric.metricName} failed: ${(error as Error)?.message ?? String(error)}`,
          );
          return { overallEvalStatus: 3, perInvocationResults: [] };
        }),
    ),
  );
  const overall = metrics.map((metric, m) =>
    metricResult(metric, results[m]!.overallScore, results[m]!.overallEvalStatus, results[m]),
  );
  const perInvocation: EvalMetricResultPerInvocation[] = inference.invocations.map((actual, i) => ({
    actualInvocation: actual,
    ...(expected?.[i] ? { expectedInvocation: expected[i] } : {}),
    evalMetricResults: metrics.map((metric, m) => {
      const entry = results[m]!.perInvocationResults.find((r) => r.actualInvocation === actual);
      return {
        ...metricResult(metric, entry?.score, entry?.evalStatus ?? 3),
        ...(entry?.rubricScores ? { details: { rubricScores: entry.rubricScores } } : {}),
      };
    }),
  }));
  return {
    ...base,
    finalEvalStatus: metricErrors.length > 0 ? 2 : finalStatus(overall.map((r) => r.evalStatus)),
    overallEvalMetricResults: overall,
    evalMetricResultPerInvocation: perInvocation,
    sessionId: inference.sessionId,
    userId: inference.userId,
    ...(inference.session ? { sessionDetails: inference.session } : {}),
    ...(metricErrors.length > 0 ? { error: metricErrors.join('; ') } : {}),
  };
}

function summarize(
  evalId: string,
  runs: EvalCaseResult[],
  metrics: readonly EvalMetric[],
): CaseSummary {
  const summaries = metrics.map((metric): MetricSummary => {
    const scores = runs
      .map(
        (run) =>
          run.overallEvalMetricResults.find((r) => r.metricName === metric.metricName)?.score,
      )
      .filter((s): s is number => s !== undefined);
    if (scores.length === 0)
      return { metricName: metric.metricName, threshold: metric.threshold, evalStatus: 3 };
    const score = scores.reduce((a, b) => a + b, 0) / scores.length;
    // An informational metric (efficiency) is never judged: every run left it NOT_EVALUATED.
    const informational = runs.every(
      (run) =>
        run.overallEvalMetricResults.find((r) => r.metricName === metric.metricName)?.evalStatus ===
        3,
    );
    return {
      metricName: metric.metricName,
      threshold: metric.threshold,
      score,
      evalStatus: informational ? 3 : score >= metric.threshold ? 1 : 2,
    };
  });
  const failedRun = runs.some(
    (r) =>
      typeof r.error === 'string' ||
      (r.finalEvalStatus === 2 && r.overallEvalMetricResults.every((m) => m.evalStatus === 3)),
  );
  return {
    evalId,
    runs: runs.length,
    evalStatus: failedRun ? 2 : finalStatus(summaries.map((s) => s.evalStatus)),
    metrics: summaries,
    errors: runs.flatMap((run) => (typeof run.error === 'string' ? [run.error] : [])),
  };
}

/**
 * Evaluate an eval set: run every case (`numRuns` times each, at most `concurrency` at once),
 * compute each metric per invocation and per case against its threshold, and return Python ADK's
 * case results plus a per-case summary (each metric's mean over the runs). Save the results with
 * an `EvalSetResultsStore` to get `.adk/eval_history/` files.
 *
 * A case whose agent run throws, or whose model call fails (a replay miss, a missing key, a
 * provider error), is FAILED with the error in its result's `error` field and its metrics
 * NOT_EVALUATED (never a score of 0); the other cases go on.
 *
 * @example
 * ```ts
 * const outcome = await evaluateEvalSet({ target: evalTargetFromAgent(agent), evalSet: await loadEvalSetFile('x.evalset.json') });
 * if (!outcome.passed) process.exitCode = 1;
 * ```
 */
export async function evaluateEvalSet(options: EvaluateEvalSetOptions): Promise<EvalSetOutcome> {
  const metrics = options.metrics ?? metricsFromConfig(DEFAULT_EVAL_CONFIG);
  const registry = options.registry ?? new MetricRegistry();
  for (const metric of metrics) registry.create(metric, metricContext(options.judgeModel));
  const wanted = options.caseIds ? new Set(options.caseIds) : undefined;
  const cases = options.evalSet.evalCases.filter((c) => !wanted || wanted.has(c.evalId));
  if (wanted) {
    const missing = [...wanted].filter((id) => !cases.some((c) => c.evalId === id));
    if (missing.length > 0) {
      throw new EvalNotFoundError({
        kind: 'evalCase',
        id: missing[0]!,
        where: `eval set ${options.evalSet.evalSetId}`,
      });
    }
  }
  const numRuns = Math.max(1, options.numRuns ?? 1);
  const jobs = cases.flatMap((evalCase) =>
    Array.from({ length: numRuns }, (_, run) => ({ evalCase, run })),
  );
  let done = 0;
  const modelCalls = new ModelCallLog();
  const results = await mapConcurrent(jobs, options.concurrency ?? 4, async ({ evalCase, run }) => {
    const result = await evaluateCase(options, evalCase, metrics, registry, modelCalls, run);
    done += 1;
    options.onProgress?.({
      done,
      total: jobs.length,
      evalId: evalCase.evalId,
      run,
      status: result.finalEvalStatus,
    });
    return result;
  });
  const summaries = cases.map((evalCase) =>
    summarize(
      evalCase.evalId,
      results.filter((r) => r.evalId === evalCase.evalId),
      metrics,
    ),
  );
  return {
    evalSetId: options.evalSet.evalSetId,
    appName: options.target.appName,
    evalCaseResults: results,
    cases: summaries,
    passed: summaries.every((s) => s.evalStatus !== 2),
  };
}
