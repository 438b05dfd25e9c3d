import type { Model } from '@adk/core';

import type {
  ConversationScenario,
  EvalCase,
  EvalMetric,
  EvalStatus,
  Invocation,
  RubricScore,
} from '../schema';
import { textOf } from './invocation-text';

/** A metric's score for one invocation. */
export interface PerInvocationResult {
  actualInvocation: Invocation;
  expectedInvocation?: Invocation;
  score?: number;
  evalStatus: EvalStatus;
  rubricScores?: RubricScore[];
}

/** A metric's score for a whole eval case, and for each invocation of it. */
export interface EvaluationResult {
  overallScore?: number;
  overallEvalStatus: EvalStatus;
  perInvocationResults: PerInvocationResult[];
  overallRubricScores?: RubricScore[];
}

/** What one metric evaluation gets. */
export interface EvaluateInput {
  /** The invocations the agent produced. */
  actual: readonly Invocation[];
  /** The recorded (golden) invocations; absent for a simulated-user case. */
  expected?: readonly Invocation[];
  /** The simulated user's goal, for a scenario case. */
  conversationScenario?: ConversationScenario;
  /** The case being evaluated (its rubrics, its expected final state...). */
  evalCase: EvalCase;
  signal?: AbortSignal;
}

/** Computes one metric for an eval case. */
export interface MetricEvaluator {
  evaluate(input: EvaluateInput): Promise<EvaluationResult>;
}

/** What a metric factory gets besides the metric's settings. */
export interface MetricContext {
  /** The judge model of LLM-judged metrics, by the name the criterion gives (any core `Model`). */
  judgeModel(name: string): Model;
}

/** Description of a metric, as the ADK web UI's `metrics-info` route lists it (Python's `MetricInfo`). */
export interface MetricInfo {
  metricName: string;
  description: string;
  metricValueInfo: {
    interval: { minValue: number; maxValue: number; openAtMin?: boolean; openAtMax?: boolean };
  };
}

/** A metric that can be registered: its description and how to build its evaluator. */
export interface MetricDefinition {
  readonly metricName: string;
  readonly description: string;
  /** Lowest and highest score (default 0 and 1). */
  readonly minValue?: number;
  readonly maxValue?: number;
  create(metric: EvalMetric, context: MetricContext): MetricEvaluator;
}

/** PASSED when `score >= threshold`, else FAILED; NOT_EVALUATED without a score. */
export function statusOf(score: number | undefined, threshold: number): EvalStatus {
  if (score === undefined || Number.isNaN(score)) return 3;
  return score >= threshold ? 1 : 2;
}

/** Average of per-invocation scores (Python's per-metric aggregation), ignoring unscored ones. */
export function averageResult(
  perInvocationResults: PerInvocationResult[],
  threshold: number,
): EvaluationResult {
  const scored = perInvocationResults.filter((r) => r.score !== undefined && r.evalStatus !== 3);
  if (scored.length === 0) return { overallEvalStatus: 3, perInvocationResults };
  const overallScore = scored.reduce((sum, r) => sum + r.score!, 0) / scored.length;
  return {
    overallScore,
    overallEvalStatus: statusOf(overallScore, threshold),
    perInvocationResults,
  };
}

/**
 * Score each invocation's final response with `score` (all at once), pairing it with its golden
 * invocation; an invocation without a final text is NOT_EVALUATED. The result is the average
 * (see {@link averageResult}).
 */
export async function scoreFinalResponses(
  input: Pick<EvaluateInput, 'actual' | 'expected'>,
  threshold: number,
  score: (invocation: Invocation, response: string) => Promise<number>,
): Promise<EvaluationResult> {
  const results: PerInvocationResult[] = await Promise.all(
    input.actual.map(async (invocation, i) => {
      const golden = input.expected?.[i];
      const base = {
        actualInvocation: invocation,
        ...(golden ? { expectedInvocation: golden } : {}),
      };
      const response = textOf(invocation.finalResponse);
      if (response === '') return { ...base, evalStatus: 3 as const };
      const value = await score(invocation, response);
      return { ...base, score: value, evalStatus: statusOf(value, threshold) };
    }),
  );
  return averageResult(results, threshold);
}
