import {
  statusOf,
  type EvaluationResult,
  type MetricDefinition,
  type PerInvocationResult,
} from './evaluator';
import { textOf } from './invocation-text';
import { judgeOptionsOf, sampleJudge } from './judge-call';

/** The judge's instructions (our own words; the verdict key is Python's). */
export function finalResponseJudgePrompt(
  prompt: string,
  response: string,
  reference: string,
): string {
  return [
    'You are grading an AI agent. Decide whether the agent response is a valid answer to the user',
    'prompt, taking the reference response as the truth. A valid response carries the same facts',
    'and meaning as the reference; wording, formatting and extra politeness do not matter, but a',
    'missing, wrong or contradicting fact makes it invalid.',
    '',
    'Answer with JSON only, in this form:',
    '{"reasoning": "<one or two sentences>", "is_the_agent_response_valid": "valid" or "invalid"}',
    '',
    `User prompt:\n${prompt}`,
    '',
    `Agent response:\n${response}`,
    '',
    `Reference response:\n${reference}`,
  ].join('\n');
}

/**
 * The judge's verdict: 1 for `"is_the_agent_response_valid": "valid"`, 0 for any other label,
 * `undefined` when the answer is not JSON or lacks the key (a fenced ```json block is accepted).
 */
export function parseValidityVerdict(text: string): number | undefined {
  const trimmed = text.trim();
  const fenced = /```json\n([\s\S]*?)\n```/.exec(trimmed);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fenced ? fenced[1]! : trimmed);
  } catch {
    return undefined;
  }
  const label = (parsed as Record<string, unknown> | null)?.is_the_agent_response_valid;
  if (typeof label !== 'string') return undefined;
  return label.toLowerCase() === 'valid' ? 1 : 0;
}

/** Majority vote over samples: valid only when strictly more samples say valid than invalid. */
export function majorityVote(scores: readonly (number | undefined)[]): number | undefined {
  const positive = scores.filter((s) => s === 1).length;
  const negative = scores.filter((s) => s === 0).length;
  if (positive === 0 && negative === 0) return undefined;
  return positive > negative ? 1 : 0;
}

/**
 * `final_response_match_v2`: an LLM judge (criterion `judgeModelOptions`: any core `Model` by
 * name, `numSamples` default 5) says whether each final response is valid against the expected
 * one; samples are combined by majority vote and the case's score is the fraction of valid
 * invocations.
 */
export const finalResponseMatchV2: MetricDefinition = {
  metricName: 'final_response_match_v2',
  description:
    'An LLM judge decides whether the final response is valid against the expected one (majority of samples); the fraction of valid invocations.',
  create(metric, context) {
    const options = judgeOptionsOf(metric);
    return {
      async evaluate({ actual, expected, signal }): Promise<EvaluationResult> {
        const results: PerInvocationResult[] = await Promise.all(
          actual.flatMap((invocation, i) => {
            const golden = expected?.[i];
            if (!golden) return [];
            const prompt = finalResponseJudgePrompt(
              textOf(golden.userContent),
              textOf(invocation.finalResponse),
              textOf(golden.finalResponse),
            );
            return [
              sampleJudge(context, options, prompt, signal).then((answers) => {
                const score = majorityVote(answers.map(parseValidityVerdict));
                return {
                  actualInvocation: invocation,
                  expectedInvocation: golden,
                  ...(score === undefined ? {} : { score }),
                  evalStatus: statusOf(score, metric.threshold),
                };
              }),
            ];
          }),
        );
        const evaluated = results.filter((r) => r.score !== undefined);
        if (evaluated.length === 0) return { overallEvalStatus: 3, perInvocationResults: results };
        const overallScore = evaluated.reduce((sum, r) => sum + r.score!, 0) / evaluated.length;
        return {
          overallScore,
          overallEvalStatus: statusOf(overallScore, metric.threshold),
          perInvocationResults: results,
        };
      },
    };
  },
};
