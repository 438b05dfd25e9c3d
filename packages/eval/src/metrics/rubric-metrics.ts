import type { Rubric } from '../schema';
import { textOf, toolCallsOf, toolResponsesOf } from './invocation-text';
import { createRubricMetric } from './rubric-based';

function rubricList(rubrics: readonly Rubric[]): string {
  return rubrics
    .map((r) => `ID: ${r.rubricId}\nProperty: ${r.rubricContent.textProperty ?? ''}`)
    .join('\n\n');
}

const ANSWER_FORMAT = [
  'For every property, in the order given, answer with exactly these four lines:',
  'ID: <the id given>',
  'Property: <the property, copied exactly>',
  'Rationale: <why, in one or two sentences>',
  'Verdict: yes or no',
].join('\n');

/**
 * `rubric_based_final_response_quality_v1`: an LLM judge checks the final response against each
 * rubric (type `FINAL_RESPONSE_QUALITY`); the score is the fraction of rubrics met.
 */
export const rubricBasedFinalResponseQualityV1 = createRubricMetric({
  metricName: 'rubric_based_final_response_quality_v1',
  description:
    'An LLM judge checks the final response against each rubric; the fraction of rubrics met (majority of samples).',
  rubricType: 'FINAL_RESPONSE_QUALITY',
  prompt: ({ actual, rubrics }) =>
    [
      "You are grading an AI agent's final response against a list of properties it should have.",
      'Judge only what the response says, given the user prompt and the tools the agent used.',
      '',
      `User prompt:\n${textOf(actual.userContent)}`,
      '',
      `Tool calls made:\n${JSON.stringify(toolCallsOf(actual.intermediateData))}`,
      '',
      `Final response:\n${textOf(actual.finalResponse)}`,
      '',
      `Properties:\n${rubricList(rubrics)}`,
      '',
      ANSWER_FORMAT,
    ].join('\n'),
});

/**
 * `rubric_based_tool_use_quality_v1`: an LLM judge checks the agent's tool calls (and their
 * results) against each rubric (type `TOOL_USE_QUALITY`); the score is the fraction met.
 */
export const rubricBasedToolUseQualityV1 = createRubricMetric({
  metricName: 'rubric_based_tool_use_quality_v1',
  description:
    "An LLM judge checks the agent's tool use against each rubric; the fraction of rubrics met (majority of samples).",
  rubricType: 'TOOL_USE_QUALITY',
  prompt: ({ actual, rubrics }) =>
    [
      'You are grading how an AI agent used its tools, against a list of properties its tool use should have.',
      '',
      `User prompt:\n${textOf(actual.userContent)}`,
      '',
      `Tool calls, in order:\n${JSON.stringify(toolCallsOf(actual.intermediateData))}`,
      '',
      `Tool results:\n${JSON.stringify(toolResponsesOf(actual.intermediateData))}`,
      '',
      `Properties:\n${rubricList(rubrics)}`,
      '',
      ANSWER_FORMAT,
    ].join('\n'),
});
