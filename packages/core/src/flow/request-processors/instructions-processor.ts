import type { LlmAgent } from '../../agents/llm-agent';
import type { ReadonlyContext } from '../../context';
import type { LlmRequest } from '../../models';
import { invocationTemplateSources, renderTemplate } from '../../instructions/template';
import {
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
 * @throws TemplateVariableError when a required template variable has no value (the flow turns
 * it into an error event).
 */
export const instructionsProcessor: RequestProcessor = {
  name: 'instructions',
  process(request, input) {
    const root = input.agent.rootAgent as Partial<LlmAgent>;
    const global = root.globalInstruction;
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
  const globalText = global === undefined ? '' : await resolveInstruction(global, input);
  const ownText = own === undefined ? '' : await resolveInstruction(own, input);
  return appendInstruction(prependInstruction(request, globalText), ownText);
}

async function resolveInstruction(
  instruction: string | ((context: ReadonlyContext) => string | Promise<string>) | undefined,
  input: RequestProcessorInput,
): Promise<string> {
  if (instruction === undefined) return '';
  if (typeof instruction === 'function') return instruction(input.context);
  return renderTemplate(
    instruction,
    invocationTemplateSources(input.invocationContext, input.context.state),
  );
}
