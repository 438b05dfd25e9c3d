import type { Invocation } from '../schema';
import { invocationCost } from '../runner/run-inference';
import type { EvaluationResult, MetricDefinition, PerInvocationResult } from './evaluator';
import { toolCallsOf } from './invocation-text';

/**
 * An informational metric: a value per invocation (undefined when not available, never 0 for
 * "unknown"), the case's value their average (comparable across cases of different lengths, as
 * Python ADK aggregates them). It never passes or fails: every status is NOT_EVALUATED and any
 * threshold is ignored.
 */
function informational(
  metricName: string,
  description: string,
  value: (invocation: Invocation) => number | undefined,
): MetricDefinition {
  return {
    metricName,
    description,
    minValue: 0,
    maxValue: Number.MAX_SAFE_INTEGER,
    create: () => ({
      evaluate: async ({ actual }): Promise<EvaluationResult> => {
        const perInvocationResults: PerInvocationResult[] = actual.map((invocation) => {
          const score = value(invocation);
          return {
            actualInvocation: invocation,
            ...(score === undefined ? {} : { score }),
            evalStatus: 3,
          };
        });
        const values = perInvocationResults.flatMap((r) =>
          r.score === undefined ? [] : [r.score],
        );
        return {
          ...(values.length > 0
            ? { overallScore: values.reduce((a, b) => a + b, 0) / values.length }
            : {}),
          overallEvalStatus: 3,
          perInvocationResults,
        };
      },
    }),
  };
}

/** `tool_call_count_v1`: tool calls per invocation (Python ADK's efficiency metric). */
export const toolCallCountV1 = informational(
  'tool_call_count_v1',
  'Tool calls the agent made per invocation (informational: lower is cheaper; never passes or fails).',
  (invocation) => toolCallsOf(invocation.intermediateData).length,
);

/** `inference_call_count_v1`: model calls per invocation, retries included. */
export const inferenceCallCountV1 = informational(
  'inference_call_count_v1',
  'Model calls the agent made per invocation (informational: never passes or fails).',
  (invocation) => invocationCost(invocation)?.calls,
);

/** `token_usage_v1`: tokens per invocation (prompt plus output, as the provider reported them). */
export const tokenUsageV1 = informational(
  'token_usage_v1',
  'Tokens the model calls of an invocation used, input plus output (informational: never passes or fails).',
  (invocation) => {
    const cost = invocationCost(invocation);
    if (cost === undefined) return undefined;
    if (cost.promptTokens === undefined && cost.outputTokens === undefined) return cost.totalTokens;
    return (cost.promptTokens ?? 0) + (cost.outputTokens ?? 0);
  },
);

/** `duration_v1`: wall-clock seconds of an invocation (the whole turn, tools included). */
export const durationV1 = informational(
  'duration_v1',
  'Seconds an invocation took, from the user message to the last event (informational).',
  (invocation) => {
    const cost = invocationCost(invocation);
    return cost === undefined ? undefined : cost.wallMs / 1000;
  },
);
