import type { FlowAgent } from '../flow-agent';
import {
  identityInstruction,
  outputSchemaInstruction,
} from '../../instructions/compile-instruction';
import { transferInstruction } from '../../instructions/transfer-instruction';
import type { FunctionDeclaration, GenerateContentConfig, LlmRequest } from '../../models';
import {
  offeredSetModelResponseTool,
  SET_MODEL_RESPONSE_INSTRUCTION,
} from '../set-model-response-tool';
import { TransferToAgentTool } from '../transfer-to-agent-tool';
import { buildContentsIncrementally } from '../../history/index';
import { withInstructionContent } from './instruction-content';
import { isPlainText } from './instructions-processor';
import type { RequestProcessorInput } from './types';

/** The static part of an agent's system instruction, and what it was built from. */
interface StaticInstruction {
  readonly global: string | undefined;
  readonly own: string | undefined;
  readonly name: string;
  readonly description: string | undefined;
  /** Global instruction, identity line and own instruction, joined (empty ones skipped). */
  readonly text: string;
}

const staticInstructions = new WeakMap<FlowAgent, StaticInstruction>();

/**
 * The request the default processors (`defaultRequestProcessors`: config, identity, instructions,
 * contents, tools, output schema, transfer) build, in one pass: one request object instead of one
 * per processor, and the agent's plain-text system instruction joined once and remembered (the
 * texts it was built from are compared on every call, so a changed instruction is seen).
 *
 * Returns `undefined` when a processor would have to wait or hand out the request: instructions
 * with placeholders or given as functions, or a tool with a `processRequest` hook. The caller then
 * runs the processors one by one. The result equals what the processors build, members in the
 * same order (checked by `default-request.test.ts` over every combination of what they read).
 */
export function buildDefaultRequest(
  model: string,
  input: RequestProcessorInput,
): LlmRequest | undefined {
  const { agent, invocationContext, tools } = input;
  const global = (agent.rootAgent as Partial<FlowAgent>).globalInstruction;
  const own = agent.instruction;
  if (!isPlainText(global) || !isPlainText(own)) return undefined;
  // With a static instruction, it takes the place of `instruction`, which joins the contents.
  const fixed = agent.staticInstruction;
  let transfer: TransferToAgentTool | undefined;
  for (let index = 0; index < tools.length; index++) {
    const tool = tools[index]!;
    if (tool.processRequest) return undefined;
    if (transfer === undefined && tool instanceof TransferToAgentTool) transfer = tool;
  }
  // config: the agent's settings, overridden key by key by the run's.
  const config: GenerateContentConfig = {
    ...agent.generateContentConfig,
    ...invocationContext.runConfig.generateContentConfig,
  };
  // identity and instructions.
  let systemInstruction = staticInstruction(agent, global, fixed ?? own);
  // contents.
  const contents = buildContentsIncrementally(invocationContext.session.events, {
    agentName: agent.name,
    branch: invocationContext.branch,
    includeContents: agent.includeContents,
  });
  // tools: their declarations.
  if (tools.length > 0) {
    const declarations = toolDeclarations(tools);
    if (declarations !== undefined) {
      const entry = { functionDeclarations: declarations };
      config.tools = config.tools === undefined ? [entry] : [...config.tools, entry];
    }
  }
  // output schema.
  const schema = agent.outputJsonSchema;
  if (schema) {
    if (offeredSetModelResponseTool(tools)) {
      systemInstruction = joinSection(systemInstruction, SET_MODEL_RESPONSE_INSTRUCTION);
    } else {
      config.responseMimeType = 'application/json';
      config.responseSchema = schema;
      systemInstruction = joinSection(systemInstruction, outputSchemaInstruction(schema));
    }
  }
  // transfer.
  if (transfer) {
    systemInstruction = joinSection(systemInstruction, transferInstruction(transfer.targets));
  }
  // Every section is static here: the whole instruction is the stable prefix.
  const request = {
    model,
    contents,
    config,
    systemInstruction,
    staticInstruction: systemInstruction,
  };
  return fixed !== undefined && own !== undefined ? withInstructionContent(request, own) : request;
}

/**
 * The declarations of `tools` (those that have one), in order; `undefined` when none has. An array
 * of the exact size: one grown by `push` keeps room for 16 more, for as long as the request lives.
 */
function toolDeclarations(
  tools: RequestProcessorInput['tools'],
): FunctionDeclaration[] | undefined {
  const declarations = new Array<FunctionDeclaration | undefined>(tools.length);
  let count = 0;
  for (let index = 0; index < tools.length; index++) {
    const declaration = tools[index]!.declaration();
    if (declaration) declarations[count++] = declaration;
  }
  if (count === 0) return undefined;
  declarations.length = count;
  return declarations as FunctionDeclaration[];
}

/** Global instruction, identity and own instruction, joined once per agent and remembered. */
function staticInstruction(
  agent: FlowAgent,
  global: string | undefined,
  own: string | undefined,
): string {
  const known = staticInstructions.get(agent);
  if (
    known !== undefined &&
    known.global === global &&
    known.own === own &&
    known.name === agent.name &&
    known.description === agent.description
  ) {
    return known.text;
  }
  const identity = identityInstruction(agent.name, agent.description);
  const text = joinSection(joinSection(global?.trim() ?? '', identity), own ?? '');
  staticInstructions.set(agent, {
    global,
    own,
    name: agent.name,
    description: agent.description,
    text,
  });
  return text;
}

/** `instruction` followed by `section` (trimmed) after a blank line; empty parts are skipped. */
function joinSection(instruction: string, section: string): string {
  const trimmed = section.trim();
  if (trimmed === '') return instruction;
  return instruction === '' ? trimmed : `${instruction}\n\n${trimmed}`;
}
