import type { ReadonlyContext } from '../context';
import { UnsupportedProviderToolError } from '../errors/unsupported-provider-tool-error';
import type { LlmRequest, Model, ProviderToolSpec, ProviderToolType } from '../models';
import type { Tool } from './tool';

const TOOL_NAMES: Record<ProviderToolType, string> = {
  webSearch: 'web_search',
  urlContext: 'url_context',
  codeExecution: 'code_execution',
};

const MARKER = Symbol.for('adk.tool.ProviderTool');

/**
 * A tool the model's provider runs itself (web search, URL context, code execution): the agent
 * declares no function for it and never runs it; the request carries it in
 * `config.providerTools` and each provider maps it to its own tool. What it produces comes back
 * in the answer: grounding and citation metadata on the event (`groundingMetadata`,
 * `citationMetadata`), or `executableCode` / `codeExecutionResult` parts.
 *
 * A model that cannot take the tool (see `ModelCapabilities.providerTools`) makes the agent fail
 * with `UnsupportedProviderToolError` before any request: when the agent is built with a `Model`,
 * or when its model name is first resolved.
 *
 * @example
 * ```ts
 * const researcher = new LlmAgent({ name: 'researcher', model, tools: [webSearchTool()] });
 * ```
 */
export class ProviderTool implements Tool {
  private readonly [MARKER] = true;
  readonly name: string;
  readonly description: string;
  readonly spec: ProviderToolSpec;

  constructor(spec: ProviderToolSpec, name = TOOL_NAMES[spec.type]) {
    this.spec = { ...spec };
    this.name = name;
    this.description = `Provider-side ${spec.type} (run by the model provider).`;
  }

  /** True when `tool` is a {@link ProviderTool} from any copy of this package. */
  static isInstance(tool: unknown): tool is ProviderTool {
    return tool != null && typeof tool === 'object' && MARKER in tool;
  }

  /** No function declaration: the provider knows the tool. */
  declaration(): undefined {
    return undefined;
  }

  /** Adds the tool to `config.providerTools`. */
  processRequest(_context: ReadonlyContext, request: LlmRequest): void {
    request.config.providerTools = [...(request.config.providerTools ?? []), { ...this.spec }];
  }

  /** Never called by a well-behaved model: the provider runs the tool. */
  async run(): Promise<unknown> {
    return {
      error: `"${this.name}" is run by the model provider, not by the agent; it cannot be called as a function.`,
    };
  }
}

/**
 * Provider-side web search: Gemini Google Search grounding, Anthropic `web_search`, OpenAI
 * `web_search_options` (search models). `options` are provider wire fields merged into the tool
 * (Anthropic `max_uses`, `allowed_domains`; OpenAI `search_context_size`, `user_location`).
 */
export function webSearchTool(options?: Record<string, unknown>): ProviderTool {
  return new ProviderTool(options ? { type: 'webSearch', options } : { type: 'webSearch' });
}

/** Provider-side URL context (Gemini `urlContext`): the model reads the URLs in the prompt. */
export function urlContextTool(options?: Record<string, unknown>): ProviderTool {
  return new ProviderTool(options ? { type: 'urlContext', options } : { type: 'urlContext' });
}

/**
 * Provider-side code execution (Gemini `codeExecution`, Anthropic `code_execution`): the model
 * writes code, the provider runs it in its sandbox, and both come back as `executableCode` and
 * `codeExecutionResult` parts.
 */
export function codeExecutionTool(options?: Record<string, unknown>): ProviderTool {
  return new ProviderTool(options ? { type: 'codeExecution', options } : { type: 'codeExecution' });
}

/**
 * Throws {@link UnsupportedProviderToolError} for the first provider tool type in `types` that
 * `model` does not declare in `capabilities.providerTools`, or, when `withFunctions` (the request
 * also declares functions), that it cannot combine with them
 * (`capabilities.providerToolsWithFunctions`).
 */
export function checkProviderTools(
  model: Model,
  types: Iterable<ProviderToolType>,
  agentName?: string,
  withFunctions = false,
): void {
  const supported = model.capabilities?.providerTools ?? [];
  const combines = model.capabilities?.providerToolsWithFunctions === true;
  for (const type of types) {
    const reason = !supported.includes(type)
      ? 'unsupported'
      : withFunctions && !combines
        ? 'with-functions'
        : undefined;
    if (reason) {
      throw new UnsupportedProviderToolError({
        modelName: model.name,
        toolType: type,
        supported,
        reason,
        ...(agentName === undefined ? {} : { agentName }),
      });
    }
  }
}
