import type { FunctionCall } from '@adk/core';

import type { Invocation } from '../schema';
import {
  averageResult,
  statusOf,
  type MetricDefinition,
  type PerInvocationResult,
} from './evaluator';
import { jsonEqual, toolCallsOf } from './invocation-text';

/** How expected tool calls are compared with actual ones. */
export type TrajectoryMatchType = 'EXACT' | 'IN_ORDER' | 'ANY_ORDER';

function same(actual: FunctionCall, expected: FunctionCall, ignoreArgs: boolean): boolean {
  return (
    actual.name === expected.name &&
    (ignoreArgs || jsonEqual(actual.args ?? {}, expected.args ?? {}))
  );
}

/**
 * Whether `actual` tool calls match `expected` ones: `EXACT` (same calls, same order, nothing
 * extra), `IN_ORDER` (expected calls appear in order, others may come between) or `ANY_ORDER`
 * (every expected call appears, each matched once, in any order).
 */
export function toolCallsMatch(
  actual: readonly FunctionCall[],
  expected: readonly FunctionCall[],
  matchType: TrajectoryMatchType,
  ignoreArgs = false,
): boolean {
  switch (matchType) {
    case 'EXACT':
      return (
        actual.length === expected.length &&
        actual.every((call, i) => same(call, expected[i]!, ignoreArgs))
      );
    case 'IN_ORDER': {
      let next = 0;
      for (const call of actual) {
        if (next < expected.length && same(call, expected[next]!, ignoreArgs)) next += 1;
      }
      return next === expected.length;
    }
    case 'ANY_ORDER': {
      const remaining = [...actual];
      for (const want of expected) {
        const index = remaining.findIndex((call) => same(call, want, ignoreArgs));
        if (index < 0) return false;
        remaining.splice(index, 1);
      }
      return true;
    }
  }
}

/**
 * `tool_trajectory_avg_score`: per invocation 1.0 when the agent's tool calls match the expected
 * ones (criterion `matchType`, default `EXACT`; `ignoreArgs` compares names only), else 0.0;
 * the case's score is the average over invocations.
 */
export const toolTrajectoryAvgScore: MetricDefinition = {
  metricName: 'tool_trajectory_avg_score',
  description:
    'Compares the tool calls of each invocation with the expected ones (EXACT, IN_ORDER or ANY_ORDER); 1 per matching invocation, averaged.',
  create(metric) {
    const matchType = metric.criterion?.matchType ?? 'EXACT';
    const ignoreArgs = metric.criterion?.ignoreArgs ?? false;
    return {
      evaluate({ actual, expected }) {
        const results: PerInvocationResult[] = [];
        actual.forEach((invocation: Invocation, i) => {
          const golden = expected?.[i];
          if (!golden) return;
          const score = toolCallsMatch(
            toolCallsOf(invocation.intermediateData),
            toolCallsOf(golden.intermediateData),
            matchType,
            ignoreArgs,
          )
            ? 1
            : 0;
          results.push({
            actualInvocation: invocation,
            expectedInvocation: golden,
            score,
            evalStatus: statusOf(score, metric.threshold),
          });
        });
        return Promise.resolve(averageResult(results, metric.threshold));
      },
    };
  },
};
