import type { FlowAgent } from '../flow-agent';
import type { ReadonlyContext } from '../../context';
import type { LlmRequest } from '../../models';
import { invocationTemplateSources, renderTemplate } from '../../instructions/template';
import {
  appendDynamicInstruction,
  appendInstruction,
  prependInstruction,
  type RequestProcessor,
  type RequestProcessorInput,
} from './types';

/**
 * The root agent's `globalInstruction` before everything else, and the agent's `instruction` after
 * its identity. String instructions are templated (`{var}`, `{app:x}`, `{artifact.f}`...); an
 * instruction function's result is used as is.
 *
 * An instruction whose text can change between requests (a function's result, or a template whose
 * placeholders were filled) goes after every static section instead (global first), so that the
 * static sections stay a stable prefix (`LlmRequest.staticInstruction`) for prompt caching.
 *
 * With a `staticInstruction`, that text takes the place of `instruction` after the identity, as
 * is, and `instruction` is left to the contents processor, which puts it in the conversation
 * ({@link renderedOwnInstruction}).
 *
 * @throws TemplateVariableError when a required template variable has no value (the flow turns
 * it into an error event).
 */
export const instructionsProcessor: RequestProcessor = {
  name: 'instructions',
  process(request, input) {
    const root = input.agent.rootAgent as Partial<FlowAgent>;
    const global = root.globalInstruction;
    const fixed = input.agent.staticInstruction;
    if (fixed !== undefined) {
      if (isPlainText(global))
        return appendInstruction(prependInstruction(request, global ?? ''), fixed);
      return renderInstructions(appendInstruction(request, fixed), input, global, undefined);
    }
    const own = input.agent.instruction;
    // Plain text (no placeholder, no function) is used as is, without an await.
    if (isPlainText(global) && isPlainText(own)) {
      return appendInstruction(prependInstruction(request, global ?? ''), own ?? '');
    }
    return renderInstructions(request, input, global, own);
  },
};

type Instruction = string | ((context: ReadonlyContext) => string | Promise<string>) | undefined;

/** True for no instruction or a string without placeholders (rendering returns it unchanged). */
export function isPlainText(instruction: Instruction): instruction is string | undefined {
  return (
    instruction === undefined || (typeof instruction === 'string' && !instruction.includes('{'))
  );
}

async function renderInstructions(
  request: LlmRequest,
  input: RequestProcessorInput,
  global: Instruction,
  own: Instruction,
): Promise<LlmRequest> {
  const globalText = await resolveInstruction(global, input);
  const ownText = await resolveInstruction(own, input);
  let next = request;
  if (!globalText.dynamic) next = prependInstruction(next, globalText.text);
  if (!ownText.dynamic) next = appendInstruction(next, ownText.text);
  if (globalText.dynamic) next = appendDynamicInstruction(next, globalText.text);
  if (ownText.dynamic) next = appendDynamicInstruction(next, ownText.text);
  return next;
}

/**
 * The agent's own `instruction`, rendered (templated, or the function's result), for an agent
 * with a `staticInstruction`, whose instruction travels in the conversation. Synchronous for
 * plain text.
 *
 * @throws TemplateVariableError when a required template variable has no value.
 */
export function renderedOwnInstruction(input: RequestProcessorInput): string | Promise<string> {
  const own = input.agent.instruction;
  if (isPlainText(own)) return own ?? '';
  return resolveInstruction(own, input).then((resolved) => resolved.text);
}

/**
 * The text of an instruction, and whether it may change between requests: a function's result
 * may; a template may when rendering changed it (a string whose braces hold no placeholder, such
 * as a JSON example, renders as itself and is static).
 */
async function resolveInstruction(
  instruction: Instruction,
  input: RequestProcessorInput,
): Promise<{ text: string; dynamic: boolean }> {
  if (instruction === undefined) return { text: '', dynamic: false };
  if (typeof instruction === 'function') {
    return { text: await instruction(input.context), dynamic: true };
  }
  const text = await renderTemplate(
    instruction,
    invocationTemplateSources(input.invocationContext, input.context.state),
  );
  return { text, dynamic: text !== instruction };
}
