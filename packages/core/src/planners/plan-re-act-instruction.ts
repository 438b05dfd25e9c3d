import {
  ACTION_TAG,
  FINAL_ANSWER_TAG,
  PLANNING_TAG,
  REASONING_TAG,
  REPLANNING_TAG,
} from './plan-re-act-tags';

/**
 * The instruction of {@link PlanReActPlanner}: plan first, then act with tools and reason between
 * the calls, then answer, each section under its tag.
 */
export const PLAN_RE_ACT_INSTRUCTION = [
  `Prefer the available tools over what you remember when you need information to answer.

Work in three stages: (1) write a plan in plain language; (2) carry it out with the tools, writing a short reasoning between tool calls that sums up where things stand and what comes next; (3) give one final answer.

Put each stage under its tag: the plan under ${PLANNING_TAG}; the tool calls under ${ACTION_TAG} and the reasoning under ${REASONING_TAG}; the final answer under ${FINAL_ANSWER_TAG}.`,
  `The plan: a numbered list of steps that, followed, answers the whole request, each step naming the available tool or tools it uses, so that reading it tells which tools to call and in what order. Use only tools you have. When the plan fails, learn from the results so far and write a revised plan under ${REPLANNING_TAG}, then follow it.`,
  `The reasoning: a summary of the progress so far, from the request and the tool results, and what to do next to get closer to the answer.`,
  `The final answer: precise and in the format the request asks for. When the tools and the information at hand cannot answer the request, say why and ask for what is missing.`,
  `Tool calls: call only the tools described to you, with only the parameters they define. Do not write code of your own besides calling them.`,
  `Above all: ask for clarification when you need more information, and use what the conversation already holds rather than calling a tool again for it.`,
].join('\n\n');
