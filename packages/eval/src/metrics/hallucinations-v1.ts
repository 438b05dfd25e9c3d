import { JudgeResponseError } from '../errors/judge-response-error';
import type { Invocation } from '../schema';
import { scoreFinalResponses, type MetricDefinition } from './evaluator';
import { textOf, toolCallsOf, toolResponsesOf } from './invocation-text';
import { askJudge, judgeOptionsOf } from './judge-call';

/** Labels that count for a sentence (Python's positive labels), and those that count against it. */
const POSITIVE = new Set(['supported', 'not_applicable']);
const NEGATIVE = new Set(['unsupported', 'contradictory', 'disputed']);

/** The first step's instructions (our own words): split the response into sentences. */
export function hallucinationSegmenterPrompt(response: string): string {
  return [
    'Split the response below into its sentences so that each can be checked on its own. Copy each',
    'sentence word for word; put each bullet point or numbered item in a sentence of its own; keep a',
    'table whole as one sentence; add nothing that is not in the response.',
    '',
    'Answer with the sentences only, each wrapped as <sentence>...</sentence>.',
    '',
    `Response:\n${response}`,
  ].join('\n');
}

/** The second step's instructions (our own words): label each sentence against the context. */
export function hallucinationValidatorPrompt(
  context: string,
  sentences: readonly string[],
): string {
  return [
    'Check each sentence of an AI agent response against the context the agent had. Give each',
    'sentence one label:',
    '- "supported": the context clearly entails it;',
    '- "unsupported": the context does not entail it (use this when in doubt; do not rely on your',
    '  own knowledge beyond the trivial);',
    '- "contradictory": the context says otherwise;',
    '- "disputed": the context both supports and contradicts it;',
    '- "not_applicable": it states no fact (a greeting, an opinion, a question, a plan).',
    '',
    'Answer with a JSON array only, one object per sentence in order:',
    '[{"sentence": "<the sentence>", "label": "<label>", "rationale": "<why>"}]',
    '',
    `Context:\n${context}`,
    '',
    `Sentences:\n${sentences.map((s) => `<sentence>${s}</sentence>`).join('\n')}`,
  ].join('\n');
}

/** The sentences of the segmenter's answer (`<sentence>...</sentence>` blocks). */
export function parseSentences(text: string): string[] {
  return [...text.matchAll(/<sentence>([\s\S]*?)<\/sentence>/g)]
    .map((m) => m[1]!.trim())
    .filter((s) => s !== '');
}

/**
 * The validator's labels, lower-cased, of the sentences it labelled with one of Python's five
 * labels (others are skipped); `undefined` when the answer is not a JSON array (a fenced block is
 * accepted).
 */
export function parseSentenceLabels(text: string): string[] | undefined {
  const trimmed = text.trim();
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(trimmed);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fenced ? fenced[1]! : trimmed);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed)) return undefined;
  return parsed
    .map((item) => (item as { label?: unknown } | null)?.label)
    .filter((label): label is string => typeof label === 'string')
    .map((label) => label.trim().toLowerCase())
    .filter((label) => POSITIVE.has(label) || NEGATIVE.has(label));
}

/** What the agent had when it answered: the user prompt, its tool calls and their outputs. */
export function hallucinationContext(invocation: Invocation): string {
  const parts = [`User prompt:\n${textOf(invocation.userContent)}`];
  const calls = toolCallsOf(invocation.intermediateData);
  if (calls.length > 0) parts.push(`tool_calls:\n${JSON.stringify(calls, null, 2)}`);
  const outputs = toolResponsesOf(invocation.intermediateData);
  if (outputs.length > 0) parts.push(`tool_outputs:\n${JSON.stringify(outputs, null, 2)}`);
  return parts.join('\n\n');
}

/**
 * `hallucinations_v1` (Python ADK's name): is each final response grounded in what the agent was
 * told and what its tools returned? As in Python, a judge (criterion `judgeModelOptions`, any core
 * `Model`; one call per step, `numSamples` unused) first splits the response into sentences, then
 * labels each `supported`, `unsupported`, `contradictory`, `disputed` or `not_applicable` against
 * the context; the invocation's score is the share of sentences `supported` or `not_applicable`
 * (in [0, 1], higher is better), the case's the mean over invocations, PASSED at or above the
 * threshold. An invocation without a text response is NOT_EVALUATED. An answer of either step that
 * cannot be read raises {@link JudgeResponseError}: the case reports an error, not a score.
 */
export const hallucinationsV1: MetricDefinition = {
  metricName: 'hallucinations_v1',
  description:
    'An LLM judge splits each final response into sentences and checks each against the user prompt and tool outputs; the share of supported (or non-factual) sentences.',
  create(metric, context) {
    const options = judgeOptionsOf(metric);
    const unreadable = (answer: string, expected: string): JudgeResponseError =>
      new JudgeResponseError({ metricName: metric.metricName, answer, expected });
    return {
      evaluate({ actual, expected, signal }) {
        const judge = context.judgeModel(options.judgeModel);
        return scoreFinalResponses(
          { actual, expected },
          metric.threshold,
          async (invocation, response) => {
            const segmented = await askJudge(
              judge,
              hallucinationSegmenterPrompt(response),
              options.judgeModelConfig,
              signal,
            );
            const sentences = parseSentences(segmented);
            if (sentences.length === 0) throw unreadable(segmented, '<sentence>...</sentence>');
            const validated = await askJudge(
              judge,
              hallucinationValidatorPrompt(hallucinationContext(invocation), sentences),
              options.judgeModelConfig,
              signal,
            );
            const labels = parseSentenceLabels(validated);
            if (labels === undefined || labels.length === 0)
              throw unreadable(validated, 'a JSON array of {"sentence", "label"}');
            return labels.filter((l) => POSITIVE.has(l)).length / labels.length;
          },
        );
      },
    };
  },
};
