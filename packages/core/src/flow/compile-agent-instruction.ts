import type { InvocationContext } from '../invocation/invocation-context';
import type { FlowAgent, InstructionProvider } from './flow-agent';
import { InvocationReadonlyContext } from '../context/invocation-contexts';
import type { Model } from '../models';
import { SET_MODEL_RESPONSE_INSTRUCTION } from './set-model-response-tool';
import { transferToolFor } from './transfer-to-agent-tool';
import {
  compileInstruction,
  type CompiledInstruction,
  type InstructionText,
} from '../instructions/compile-instruction';
import {
  invocationTemplateSources,
  renderTemplate,
  type TemplateSources,
} from '../instructions/template';

async function resolve(
  instruction: string | InstructionProvider | undefined,
  ctx: InvocationContext,
  sources: TemplateSources,
): Promise<InstructionText | undefined> {
  if (instruction === undefined) return undefined;
  if (typeof instruction === 'function') {
    return { text: await instruction(new InvocationReadonlyContext(ctx)), dynamic: true };
  }
  const text = await renderTemplate(instruction, sources);
  // As the request pipeline decides: a template is dynamic when rendering changed it.
  return { text, dynamic: text !== instruction };
}

/**
 * The system instruction `agent` sends in `ctx`, compiled in the documented order (see
 * {@link compileInstruction}): the root's global instruction, the identity, the agent's
 * instruction, the output-schema note and the transfer block. Instructions given as functions or
 * containing template variables are the dynamic part; the rest is static and can be cached by a
 * provider. Instructions that tools add per request (`processRequest`) are not included.
 *
 * The request pipeline of `LlmAgent` produces exactly this `text` for an agent whose tools add no
 * instruction (toolsets are assumed to provide tools, for the `set_model_response` note).
 *
 * @throws TemplateVariableError when a required template variable has no value.
 * @example
 * ```ts
 * const { static: cacheable, dynamic } = await compileAgentInstruction(agent, ctx);
 * ```
 */
export async function compileAgentInstruction(
  agent: FlowAgent,
  ctx: InvocationContext,
): Promise<CompiledInstruction> {
  const sources = invocationTemplateSources(ctx, new InvocationReadonlyContext(ctx).state);
  const root = agent.rootAgent as Partial<FlowAgent>;
  const [globalInstruction, instruction] = await Promise.all([
    resolve(root.globalInstruction, ctx, sources),
    resolve(agent.instruction, ctx, sources),
  ]);
  const transferTargets = transferToolFor(agent)?.targets ?? [];
  return compileInstruction({
    agentName: agent.name,
    description: agent.description,
    globalInstruction,
    instruction,
    outputSchema: agent.outputJsonSchema,
    outputInstruction: answersThroughTool(agent, ctx, transferTargets.length > 0)
      ? SET_MODEL_RESPONSE_INSTRUCTION
      : undefined,
    transferTargets,
  });
}

/**
 * Whether the agent's steps offer `set_model_response` (see `withSetModelResponseTool`): an
 * `outputSchema`, tools declared to the model (toolsets are assumed to provide some), and a model
 * that does not declare `responseSchemaWithTools`.
 */
function answersThroughTool(agent: FlowAgent, ctx: InvocationContext, transfer: boolean): boolean {
  if (agent.outputSchema === undefined) return false;
  let declared = transfer || agent.toolsets.length > 0;
  for (const tool of agent.staticTools.values()) declared ||= tool.declaration() !== undefined;
  if (!declared) return false;
  let model: Model | undefined;
  try {
    model = agent.resolveModel(ctx.models);
  } catch {
    model = undefined;
  }
  return model?.capabilities?.responseSchemaWithTools !== true;
}
