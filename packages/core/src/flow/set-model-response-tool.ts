import type { FlowAgent } from './flow-agent';
import type { FunctionCall } from '../content';
import type { ResolvedTools } from './resolve-tools';
import type { FunctionDeclaration, JsonSchema, Model } from '../models';
import type { Tool } from '../tools/tool';

/** Name of the tool through which a model gives its structured final answer. */
export const SET_MODEL_RESPONSE = 'set_model_response';

/** What the tool's function response says (the answer itself is in the call's arguments). */
const ACKNOWLEDGEMENT = 'Response set successfully.';

/**
 * The system-instruction note of a step that offers `set_model_response` (instead of the
 * "reply with JSON" note of a response schema).
 */
export const SET_MODEL_RESPONSE_INSTRUCTION =
  `When you have finished using tools, give your final answer by calling ${SET_MODEL_RESPONSE} ` +
  'with it as the arguments (they follow the required answer schema). Do not write the final ' +
  'answer as text, and call no other tool in the same turn.';

/**
 * The tool an agent with an `outputSchema` and tools is offered when its model cannot combine a
 * response schema with function calling (`ModelCapabilities.responseSchemaWithTools` not `true`).
 * Its parameters are the output schema: a JSON object schema as it is, any other schema (an
 * array, a string, a union) wrapped as the single required parameter `response`.
 *
 * The flow, not `run`, gives the tool its meaning: it validates the call's arguments against the
 * `outputSchema` before any call of the response runs (invalid arguments end the agent's turn with
 * `OUTPUT_VALIDATION_FAILED`, as an invalid text answer does), runs the calls, then emits the
 * agent's final answer: text = the answer as JSON, `outputKey` = the parsed value. `run` only
 * acknowledges, so the call is answered in the history like any other.
 */
export class SetModelResponseTool implements Tool {
  readonly name = SET_MODEL_RESPONSE;
  readonly description =
    'Set your final answer, following the required answer schema. Call it once, when you have ' +
    'the answer, instead of writing the answer as text.';
  /** True when the schema is not a JSON object schema and travels in the `response` parameter. */
  readonly wrapped: boolean;
  readonly #declaration: FunctionDeclaration;

  /** @param schema The JSON Schema of the agent's `outputSchema` (`LlmAgent.outputJsonSchema`). */
  constructor(schema: JsonSchema) {
    this.wrapped = schema.type !== 'object';
    this.#declaration = {
      name: this.name,
      description: this.description,
      parameters: this.wrapped
        ? { type: 'object', properties: { response: schema }, required: ['response'] }
        : schema,
    };
  }

  declaration(): FunctionDeclaration {
    return this.#declaration;
  }

  /** The answer a call carries: its arguments, or their `response` member for a wrapped schema. */
  answerOf(call: FunctionCall): unknown {
    const args = call.args ?? {};
    return this.wrapped ? args.response : args;
  }

  run(): Promise<unknown> {
    return Promise.resolve(ACKNOWLEDGEMENT);
  }
}

const toolOfAgent = new WeakMap<FlowAgent, SetModelResponseTool>();
const extendedTools = new WeakMap<ResolvedTools, ResolvedTools>();

/** The `set_model_response` tool of `agent` (one per agent), for an agent with an `outputSchema`. */
export function setModelResponseToolFor(agent: FlowAgent): SetModelResponseTool {
  let tool = toolOfAgent.get(agent);
  if (!tool) {
    tool = new SetModelResponseTool(agent.outputJsonSchema!);
    toolOfAgent.set(agent, tool);
  }
  return tool;
}

/**
 * The tools of one step plus `set_model_response` when the step needs it: the agent has an
 * `outputSchema`, the step declares at least one tool to the model, and `model` does not declare
 * `capabilities.responseSchemaWithTools`. Otherwise `resolved` itself (the common case costs two
 * property reads). A tool of the agent's own with that name takes precedence (the response schema
 * is then sent as before). Cached per resolved tool set.
 */
export function withSetModelResponseTool(
  agent: FlowAgent,
  model: Model,
  resolved: ResolvedTools,
): ResolvedTools {
  if (agent.outputSchema === undefined || resolved.tools.length === 0) return resolved;
  if (model.capabilities?.responseSchemaWithTools === true) return resolved;
  let extended = extendedTools.get(resolved);
  if (extended === undefined) {
    extended = resolved;
    if (
      !resolved.byName.has(SET_MODEL_RESPONSE) &&
      resolved.tools.some((tool) => tool.declaration() !== undefined)
    ) {
      const tool = setModelResponseToolFor(agent);
      const byName = new Map<string, Tool>(resolved.byName);
      byName.set(tool.name, tool);
      extended = { tools: [...resolved.tools, tool], byName, failures: resolved.failures };
    }
    extendedTools.set(resolved, extended);
  }
  return extended;
}

/** The tool when `tools` (one step's) offer the built-in `set_model_response`, else `undefined`. */
export function offeredSetModelResponseTool(
  tools: readonly Tool[],
): SetModelResponseTool | undefined {
  for (let index = tools.length - 1; index >= 0; index--) {
    const tool = tools[index];
    if (tool instanceof SetModelResponseTool) return tool;
  }
  return undefined;
}
