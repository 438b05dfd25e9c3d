import type { z } from 'zod';

import { toCallbackList } from '../callbacks/run-callbacks';
import type {
  AfterModelCallback,
  AfterToolCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  ModelErrorCallback,
  OneOrMany,
  ToolErrorCallback,
} from '../callbacks/types';
import type { ContextCompressor } from '../compression/context-compressor';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { ModelNotFoundError } from '../errors/model-not-found-error';
import type { Event } from '../events';
import type { FlowAgent, InstructionProvider } from '../flow/flow-agent';
import { runLlmFlow } from '../flow/llm-flow';
import { defaultRequestProcessors } from '../flow/request-processors/default-processors';
import type { RequestProcessor } from '../flow/request-processors/types';
import type { GenerateContentConfig, JsonSchema, Model, ProviderToolType } from '../models';
import type { Planner } from '../planners/planner';
import type { Policy } from '../policies/policy';
import type { ModelRegistry } from '../models/model-registry';
import { isToolset } from '../tools/is-toolset';
import { checkProviderTools, ProviderTool } from '../tools/provider-tool';
import type { Tool, Toolset } from '../tools/tool';
import { isToolTimeout } from '../context/run-config';
import { BaseAgent, type BaseAgentOptions } from './base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { toOutputJsonSchema } from './output-json-schema';

export type { InstructionProvider };

/** Options of {@link LlmAgent}. */
export interface LlmAgentOptions extends BaseAgentOptions {
  /**
   * A model name resolved through the Runner's `ModelRegistry` (once, then cached), or a `Model`
   * instance. Omitted: inherited from the nearest ancestor `LlmAgent` that has one.
   */
  model?: string | Model;
  /**
   * The agent's instruction. A string may use `{var}`, `{var?}`, `{app:x}`, `{user:x}`, `{temp:x}`
   * and `{artifact.name}` placeholders; a missing required variable ends the agent with an error
   * event of code `TEMPLATE_VARIABLE_MISSING`. A function is called per request.
   */
  instruction?: string | InstructionProvider;
  /** Instruction for the whole tree; only the root agent's is used. Templated like `instruction`. */
  globalInstruction?: string | InstructionProvider;
  /**
   * An instruction that never changes, sent as is (no templating) in the system instruction, as
   * Python ADK's `static_instruction`. When it is set, `instruction` no longer goes in the system
   * instruction: it travels in the conversation, as a user message placed before the latest user
   * message (after any function responses), so that the system text, the tools and the history
   * form a prefix that only grows from one request to the next and providers' prompt caches reuse
   * it. Use it for a long, stable prompt with a short part that depends on the session.
   */
  staticInstruction?: string;
  /** Tools and toolsets (toolsets are resolved before every model call). */
  tools?: readonly (Tool | Toolset)[];
  /** Generation settings; `RunConfig.generateContentConfig` overrides them key by key. */
  generateContentConfig?: GenerateContentConfig;
  /**
   * The final answer must be JSON matching this schema: the model is asked for JSON
   * (`responseMimeType`, `responseSchema`), and an answer that is not valid JSON of this shape
   * becomes an error event of code `OUTPUT_VALIDATION_FAILED` (and is not saved to `outputKey`).
   */
  outputSchema?: z.ZodType;
  /**
   * State key receiving the agent's final answer (text, or the parsed value with `outputSchema`).
   * Saved from the final, complete response only; never from streamed chunks.
   */
  outputKey?: string;
  /** `'default'`: the relevant history. `'none'`: only the current turn. */
  includeContents?: 'default' | 'none';
  /** This agent may not hand control back to its parent. */
  disallowTransferToParent?: boolean;
  /** This agent may not hand control to its siblings. */
  disallowTransferToPeers?: boolean;
  /**
   * Policies of this agent (tool authorization, human confirmation, output filters), checked after
   * the Runner's. See `Policy`.
   */
  policies?: readonly Policy[];
  /**
   * Keeps the context small: asked before each model call whether to compact older history
   * (recorded as a compaction event). See `ContextCompressor`.
   */
  contextCompressor?: ContextCompressor;
  /**
   * How the agent plans and thinks: a `BuiltInPlanner` (the model's own thinking, with a
   * thinking config set on every request) or a `PlanReActPlanner` (a plan in tagged text, for
   * models without thinking), or your own `Planner`.
   */
  planner?: Planner;
  beforeModelCallback?: OneOrMany<BeforeModelCallback>;
  afterModelCallback?: OneOrMany<AfterModelCallback>;
  onModelErrorCallback?: OneOrMany<ModelErrorCallback>;
  beforeToolCallback?: OneOrMany<BeforeToolCallback>;
  afterToolCallback?: OneOrMany<AfterToolCallback>;
  onToolErrorCallback?: OneOrMany<ToolErrorCallback>;
  /** Most retries granted by error callbacks per model or tool call (default 2). */
  maxErrorRetries?: number;
  /**
   * Timeout of this agent's tool calls, in milliseconds, for tools that set no `timeoutMs` of
   * their own (`0` or `Infinity`: no limit). Unset: `RunConfig.toolTimeoutMs`, else 5 minutes.
   */
  toolTimeoutMs?: number;
  /**
   * The ordered request processors that build each model request. Default:
   * {@link defaultRequestProcessors} (config, identity, instructions, contents, tools, output schema).
   */
  requestProcessors?: readonly RequestProcessor[];
}

/** Default `maxErrorRetries`. */
export const DEFAULT_MAX_ERROR_RETRIES = 2;

/**
 * An agent driven by a language model: it builds a request from its definition and the session,
 * calls the model, runs the tools the model asks for (concurrently), and loops until the model
 * gives a final answer.
 *
 * @example
 * ```ts
 * const agent = new LlmAgent({
 *   name: 'weather_agent',
 *   model: 'gemini-2.5-flash',
 *   instruction: 'Answer weather questions for {user:city?}.',
 *   tools: [getWeather],
 * });
 * ```
 */
export class LlmAgent extends BaseAgent implements FlowAgent {
  readonly model: string | Model | undefined;
  readonly instruction: string | InstructionProvider | undefined;
  readonly globalInstruction: string | InstructionProvider | undefined;
  readonly staticInstruction: string | undefined;
  readonly tools: readonly (Tool | Toolset)[];
  readonly generateContentConfig: GenerateContentConfig | undefined;
  readonly outputSchema: z.ZodType | undefined;
  /** JSON Schema of `outputSchema`, computed once. */
  readonly outputJsonSchema: JsonSchema | undefined;
  readonly outputKey: string | undefined;
  readonly includeContents: 'default' | 'none';
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
  readonly policies: readonly Policy[];
  readonly contextCompressor: ContextCompressor | undefined;
  readonly planner: Planner | undefined;
  readonly beforeModelCallbacks: readonly BeforeModelCallback[];
  readonly afterModelCallbacks: readonly AfterModelCallback[];
  readonly onModelErrorCallbacks: readonly ModelErrorCallback[];
  readonly beforeToolCallbacks: readonly BeforeToolCallback[];
  readonly afterToolCallbacks: readonly AfterToolCallback[];
  readonly onToolErrorCallbacks: readonly ToolErrorCallback[];
  readonly maxErrorRetries: number;
  /** Timeout of tool calls that set none of their own; `undefined`: the run's default. */
  readonly toolTimeoutMs: number | undefined;
  readonly requestProcessors: readonly RequestProcessor[];
  /** The tools that are not toolsets, by name (computed once). */
  readonly staticTools: ReadonlyMap<string, Tool>;
  /** The toolsets among `tools`. */
  readonly toolsets: readonly Toolset[];
  private resolvedModel: { registry: ModelRegistry; model: Model } | undefined;

  constructor(options: LlmAgentOptions) {
    super(options);
    this.model = options.model;
    this.instruction = options.instruction;
    this.globalInstruction = options.globalInstruction;
    this.staticInstruction = options.staticInstruction;
    this.tools = [...(options.tools ?? [])];
    this.generateContentConfig = options.generateContentConfig;
    this.outputSchema = options.outputSchema;
    this.outputJsonSchema = options.outputSchema && toOutputJsonSchema(options.outputSchema);
    this.outputKey = options.outputKey;
    this.includeContents = options.includeContents ?? 'default';
    this.disallowTransferToParent = options.disallowTransferToParent ?? false;
    this.disallowTransferToPeers = options.disallowTransferToPeers ?? false;
    this.policies = [...(options.policies ?? [])];
    this.contextCompressor = options.contextCompressor;
    this.planner = options.planner;
    this.beforeModelCallbacks = toCallbackList(options.beforeModelCallback);
    this.afterModelCallbacks = toCallbackList(options.afterModelCallback);
    this.onModelErrorCallbacks = toCallbackList(options.onModelErrorCallback);
    this.beforeToolCallbacks = toCallbackList(options.beforeToolCallback);
    this.afterToolCallbacks = toCallbackList(options.afterToolCallback);
    this.onToolErrorCallbacks = toCallbackList(options.onToolErrorCallback);
    this.maxErrorRetries = options.maxErrorRetries ?? DEFAULT_MAX_ERROR_RETRIES;
    if (options.toolTimeoutMs !== undefined && !isToolTimeout(options.toolTimeoutMs)) {
      throw new InvalidArgumentError({
        message: `Agent "${options.name}": toolTimeoutMs must be a number >= 0, got ${String(options.toolTimeoutMs)}.`,
        argument: 'toolTimeoutMs',
      });
    }
    this.toolTimeoutMs = options.toolTimeoutMs;
    this.requestProcessors = options.requestProcessors ?? defaultRequestProcessors;
    const staticTools = new Map<string, Tool>();
    const toolsets: Toolset[] = [];
    for (const entry of this.tools) {
      if (isToolset(entry)) {
        toolsets.push(entry);
        continue;
      }
      if (staticTools.has(entry.name)) {
        throw new InvalidArgumentError({
          message: `Agent "${this.name}" has two tools named "${entry.name}"; tool names must be unique.`,
          argument: 'tools',
        });
      }
      staticTools.set(entry.name, entry);
    }
    this.staticTools = staticTools;
    this.toolsets = toolsets;
    // A provider tool the model cannot take fails now, not with a 400 at run time.
    if (typeof this.model === 'object') this.checkProviderTools(this.model);
  }

  /**
   * The model this agent calls: its own, or the nearest ancestor LlmAgent's. A name is resolved
   * through `registry` once and cached.
   *
   * @throws ModelNotFoundError when no provider serves the name, or no agent of the chain has a model.
   * @throws UnsupportedProviderToolError when the model cannot take one of the agent's provider tools.
   */
  resolveModel(registry: ModelRegistry): Model {
    const cached = this.resolvedModel;
    if (cached && cached.registry === registry) return cached.model;
    const source = this.modelSource();
    if (source === undefined) {
      throw new ModelNotFoundError({
        modelName: '',
        registeredPatterns: registry.patterns,
        message: `Agent "${this.name}" has no model and no ancestor LlmAgent defines one. Set the "model" option.`,
      });
    }
    const model = typeof source === 'string' ? registry.resolve(source) : source;
    this.checkProviderTools(model);
    this.resolvedModel = { registry, model };
    return model;
  }

  /** The flow of the agent: steps until a final answer (see {@link runLlmFlow}). */
  protected runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    return runLlmFlow(this, ctx);
  }

  /**
   * Throws `UnsupportedProviderToolError` when `model` cannot take one of the agent's provider
   * tools (`ProviderTool`s among its tools; those a toolset provides are checked per request), or
   * cannot take them next to the agent's function tools.
   */
  private checkProviderTools(model: Model): void {
    const types: ProviderToolType[] = [];
    let withFunctions = false;
    for (const tool of this.staticTools.values()) {
      if (ProviderTool.isInstance(tool)) types.push(tool.spec.type);
      else if (tool.declaration() !== undefined) withFunctions = true;
    }
    if (types.length > 0) checkProviderTools(model, types, this.name, withFunctions);
  }

  private modelSource(): string | Model | undefined {
    if (this.model !== undefined) return this.model;
    for (let agent = this.parentAgent; agent; agent = agent.parentAgent) {
      const model = (agent as Partial<LlmAgent>).model;
      if (model !== undefined) return model;
    }
    return undefined;
  }
}
