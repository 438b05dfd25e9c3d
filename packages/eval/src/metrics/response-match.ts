import {
  averageResult,
  statusOf,
  type MetricDefinition,
  type PerInvocationResult,
} from './evaluator';
import { textOf } from './invocation-text';
import { rouge1 } from './rouge';

/**
 * `response_match_score`: per invocation the ROUGE-1 F-measure of the agent's final response
 * against the expected one (Python ADK's tokenisation); the case's score is the average.
 */
export const responseMatchScore: MetricDefinition = {
  metricName: 'response_match_score',
  description:
    'ROUGE-1 F-measure of the final response against the expected one (0 to 1), averaged over invocations.',
  create(metric) {
    return {
      evaluate({ actual, expected }) {
        const results: PerInvocationResult[] = [];
        actual.forEach((invocation, i) => {
          const golden = expected?.[i];
          if (!golden) return;
          const score = rouge1(
            textOf(invocation.finalResponse),
            textOf(golden.finalResponse),
          ).fmeasure;
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
