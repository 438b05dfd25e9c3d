import type { Content, Part } from '../content';
import type { LlmRequest } from '../models';
import type { Planner } from './planner';
import { PLAN_RE_ACT_INSTRUCTION } from './plan-re-act-instruction';
import {
  ACTION_TAG,
  FINAL_ANSWER_TAG,
  PLANNING_TAG,
  REASONING_TAG,
  REPLANNING_TAG,
} from './plan-re-act-tags';

const THOUGHT_TAGS = [PLANNING_TAG, REPLANNING_TAG, REASONING_TAG, ACTION_TAG] as const;

/**
 * A planner for models without built-in thinking (Python ADK's `PlanReActPlanner`): the model is
 * told to write a plan under `/*PLANNING*\/`, act with tools under `/*ACTION*\/`, reason under
 * `/*REASONING*\/` and answer under `/*FINAL_ANSWER*\/`. In each response:
 *
 * - text before the last `/*FINAL_ANSWER*\/` becomes a thought part, the text after it the answer;
 * - a text part starting with a planning, replanning, reasoning or action tag is marked as a
 *   thought, its leading tag removed;
 * - parts after the first group of function calls are dropped (the model acts, then waits for the
 *   results), and calls without a name are left out.
 *
 * Thoughts are shown to the user but never to other agents. On the next calls the agent's own
 * planning text is sent back as plain text (its `thought` mark is removed from the request), so
 * the model sees its plan; thoughts a provider signed (real thinking blocks) are kept as they are.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({ name: 'planner', model, tools: [search], planner: new PlanReActPlanner() });
 * ```
 */
export class PlanReActPlanner implements Planner {
  /** The request with the agent's unsigned thoughts sent back as plain text. */
  processRequest(request: LlmRequest): LlmRequest {
    let contents: Content[] | undefined;
    request.contents.forEach((content, index) => {
      if (!content.parts.some(isUnsignedThought)) return;
      contents ??= [...request.contents];
      contents[index] = {
        ...content,
        parts: content.parts.map((part) => {
          if (!isUnsignedThought(part)) return part;
          const { thought: _thought, ...rest } = part;
          return rest;
        }),
      };
    });
    return contents ? { ...request, contents } : request;
  }

  buildPlanningInstruction(): string {
    return PLAN_RE_ACT_INSTRUCTION;
  }

  processPlanningResponse(_context: unknown, parts: readonly Part[]): Part[] | undefined {
    if (parts.length === 0) return undefined;
    const kept: Part[] = [];
    let index = 0;
    for (; index < parts.length; index++) {
      const part = parts[index]!;
      if (part.functionCall) {
        if (!part.functionCall.name) continue;
        break;
      }
      splitTextPart(part, kept);
    }
    // The first group of calls, and nothing after it.
    for (; index < parts.length && parts[index]!.functionCall; index++) {
      const part = parts[index]!;
      if (part.functionCall!.name) kept.push(part);
    }
    return kept;
  }
}

function isUnsignedThought(part: Part): boolean {
  return part.thought === true && !part.thoughtSignature;
}

function splitTextPart(part: Part, kept: Part[]): void {
  const text = part.text;
  if (text !== undefined && text.includes(FINAL_ANSWER_TAG)) {
    const cut = text.lastIndexOf(FINAL_ANSWER_TAG) + FINAL_ANSWER_TAG.length;
    const reasoning = text.slice(0, cut);
    const answer = text.slice(cut);
    if (reasoning) kept.push(asThought({ text: reasoning }));
    if (answer) kept.push({ text: answer });
    return;
  }
  if (text && THOUGHT_TAGS.some((tag) => text.startsWith(tag))) {
    kept.push(asThought(part));
    return;
  }
  kept.push(part);
}

/** A copy of a text part marked as a thought, its leading planning tag removed. */
function asThought(part: Part): Part {
  const text = part.text ?? '';
  const tag = THOUGHT_TAGS.find((candidate) => text.startsWith(candidate));
  return { ...part, text: tag ? text.slice(tag.length) : text, thought: true };
}
