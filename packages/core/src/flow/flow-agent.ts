import type { z } from 'zod';

import type { AgentNode, InvocationContext } from '../invocation/invocation-context';
import type {
  AfterModelCallback,
  AfterToolCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  ModelErrorCallback,
  ToolErrorCallback,
} from '../callbacks/types';
import type { ContextCompressor } from '../compression/context-compressor';
import type { ReadonlyContext } from '../context';
import type { GenerateContentConfig, JsonSchema, LlmRequest, Model } from '../models';
import type { ModelRegistry } from '../models/model-registry';
import type { Planner } from '../planners/planner';
import type { Policy } from '../policies/policy';
import type { Tool, Toolset } from '../tools/tool';

/** An instruction computed per request. Its result is used as is (no `{var}` templating). */
export type InstructionProvider = (context: ReadonlyContext) => string | Promise<string>;

/**
 * What the flow reads of the agent it runs: the definition of an `LlmAgent`, as plain readonly
 * data plus its model resolution. The flow (`runLlmFlow` and its steps, request processors, tool
 * execution, postprocessors) depends on this type, not on the `LlmAgent` class, so it can be
 * read and tested on its own; `LlmAgent` implements it. See `LlmAgentOptions` for each field.
 */
export interface FlowAgent extends AgentNode {
  readonly instruction: string | InstructionProvider | undefined;
  readonly globalInstruction: string | InstructionProvider | undefined;
  readonly staticInstruction?: string | undefined;
  readonly tools: readonly (Tool | Toolset)[];
  readonly generateContentConfig: GenerateContentConfig | undefined;
  readonly outputSchema: z.ZodType | undefined;
  /** JSON Schema of `outputSchema`. */
  readonly outputJsonSchema: JsonSchema | undefined;
  readonly outputKey: string | undefined;
  readonly includeContents: 'default' | 'none';
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
  readonly policies: readonly Policy[];
  readonly contextCompressor: ContextCompressor | undefined;
  /** Plans and thinking (see `Planner`); `undefined`: none. */
  readonly planner?: Planner | undefined;
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
  /** The tools that are not toolsets, by name. */
  readonly staticTools: ReadonlyMap<string, Tool>;
  /** The toolsets among `tools`. */
  readonly toolsets: readonly Toolset[];
  /**
   * The model this agent calls (its own, or the nearest ancestor's), resolved through `registry`.
   * @throws ModelNotFoundError when none can be resolved.
   */
  resolveModel(registry: ModelRegistry): Model;
}

/** Everything a request processor may read. Processors never change it. */
export interface RequestProcessorInput {
  /** The agent the request is built for. */
  readonly agent: FlowAgent;
  /** The invocation (session, run config, services). */
  readonly invocationContext: InvocationContext;
  /** Read-only view for instruction providers. */
  readonly context: ReadonlyContext;
  /** The tools available in this step (static tools plus resolved toolsets), in order. */
  readonly tools: readonly Tool[];
}

/**
 * One stage of request building. `process` is pure: it returns a new request derived from the one
 * it is given and from `input`, without changing either (tools' `processRequest` hooks receive a
 * copy). The flow runs an agent's processors in order, starting from
 * `{ model, contents: [], config: {} }`.
 *
 * To extend request building (agent transfer, context compression, policies), write a processor
 * and insert it in the list: `new FlowAgent({ requestProcessors: [...defaultRequestProcessors, mine] })`,
 * or add it to {@link defaultRequestProcessors} for every agent.
 */
export interface RequestProcessor {
  /** Short stable name, e.g. `instructions` (used to place other processors before or after). */
  readonly name: string;
  process(request: LlmRequest, input: RequestProcessorInput): LlmRequest | Promise<LlmRequest>;
}
