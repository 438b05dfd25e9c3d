import type { GenerateOptions, LlmRequest, LlmResponse, Model, ModelCapabilities } from '@adk/core';
import { resolveApiKey, type HttpClient } from '@adk/model-http';

import { ANTHROPIC_PROVIDER_TOOLS, toAnthropicServerTools } from './convert/anthropic-server-tools';
import { fromAnthropicResponse } from './convert/from-anthropic-response';
import type { AnthropicResponse } from './convert/anthropic-wire';
import {
  JSON_RESPONSE_TOOL,
  toAnthropicRequest,
  usesJsonResponseTool,
} from './convert/to-anthropic-request';
import { readAnthropicStream } from './anthropic-stream';

/** Environment variable read when no `apiKey` is set. */
export const ANTHROPIC_API_KEY_ENV_VARS = ['ANTHROPIC_API_KEY'] as const;

/** Value of the `anthropic-version` header sent with every request. */
export const ANTHROPIC_API_VERSION = '2023-06-01';

/**
 * Default `max_tokens` (the Messages API requires one): 4096 for the Claude 3.0 family, whose
 * output limit it is, 8192 for every later model. Override with the `maxTokens` setting or the
 * request's `maxOutputTokens`.
 */
export function defaultMaxTokens(model: string): number {
  return /^claude-3-(opus|sonnet|haiku)/.test(model) ? 4096 : 8192;
}

/**
 * A Claude model over the Anthropic Messages API (`POST /v1/messages`). Create it with
 * `createAnthropic()(name)` rather than directly.
 */
export class AnthropicModel implements Model {
  readonly name: string;
  /** The model id sent to the API (an `anthropic/` prefix removed). */
  readonly apiModelId: string;
  /**
   * No `responseSchemaWithTools`: the Messages API has no JSON mode, and its structured output here
   * is one forced tool, which cannot be combined with the agent's tools. An agent with
   * `outputSchema` and tools answers through core's `set_model_response` tool instead.
   * Provider tools: `webSearch` and `codeExecution` (server tools; no URL context), next to the
   * agent's own tools too.
   */
  readonly capabilities: ModelCapabilities = {
    responseSchemaWithTools: false,
    providerTools: ANTHROPIC_PROVIDER_TOOLS,
    providerToolsWithFunctions: true,
  };
  private readonly http: HttpClient;
  private readonly apiKey: string | undefined;
  private readonly maxTokens: number;
  private readonly promptCaching: boolean;
  private readonly betas: readonly string[];

  constructor(
    name: string,
    options: {
      http: HttpClient;
      apiKey?: string;
      maxTokens?: number;
      promptCaching?: boolean;
      /** The provider's `anthropic-beta` values (a request's server tools may add theirs). */
      betas?: readonly string[] | undefined;
    },
  ) {
    this.name = name;
    this.apiModelId = name.replace(/^anthropic\//, '');
    this.http = options.http;
    this.apiKey = options.apiKey;
    this.maxTokens = options.maxTokens ?? defaultMaxTokens(this.apiModelId);
    this.promptCaching = options.promptCaching ?? false;
    this.betas = options.betas ?? [];
  }

  async *generate(
    request: LlmRequest,
    options: GenerateOptions,
  ): AsyncGenerator<LlmResponse, void> {
    const apiKey = resolveApiKey(this.apiKey, 'anthropic', ANTHROPIC_API_KEY_ENV_VARS);
    const body = toAnthropicRequest(request, {
      model: this.apiModelId,
      maxTokens: this.maxTokens,
      promptCaching: this.promptCaching,
    });
    const jsonResponseTool = usesJsonResponseTool(body) ? JSON_RESPONSE_TOOL : undefined;
    const headers: Record<string, string> = {
      'x-api-key': apiKey,
      'anthropic-version': ANTHROPIC_API_VERSION,
    };
    // Server tools in beta (code execution) add their beta to those of the provider settings.
    const { betas } = toAnthropicServerTools(request.config?.providerTools);
    const added = betas.filter((beta) => !this.betas.includes(beta));
    if (added.length > 0) headers['anthropic-beta'] = [...this.betas, ...added].join(',');
    const call = { model: this.name, path: '/messages', headers, signal: options.signal };
    if (!options.stream) {
      const { data } = await this.http.postJson<AnthropicResponse>({ ...call, body });
      yield fromAnthropicResponse(data, { jsonResponseTool });
      return;
    }
    const stream = await this.http.postStream({
      ...call,
      body: { ...body, stream: true },
      headers: { ...call.headers, accept: 'text/event-stream' },
    });
    yield* readAnthropicStream(stream.body, this.name, { jsonResponseTool });
  }
}
