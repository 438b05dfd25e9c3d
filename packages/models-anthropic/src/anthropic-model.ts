import type { GenerateOptions, LlmRequest, LlmResponse, Model, ModelCapabilities } from '@adk/core';
import { resolveApiKey, type HttpClient } from '@adk/model-http';

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
   */
  readonly capabilities: ModelCapabilities = { responseSchemaWithTools: false };
  private readonly http: HttpClient;
  private readonly apiKey: string | undefined;
  private readonly maxTokens: number;
  private readonly promptCaching: boolean;

  constructor(
    name: string,
    options: { http: HttpClient; apiKey?: string; maxTokens?: number; promptCaching?: boolean },
  ) {
    this.name = name;
    this.apiModelId = name.replace(/^anthropic\//, '');
    this.http = options.http;
    this.apiKey = options.apiKey;
    this.maxTokens = options.maxTokens ?? defaultMaxTokens(this.apiModelId);
    this.promptCaching = options.promptCaching ?? false;
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
    const call = {
      model: this.name,
      path: '/messages',
      headers: { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_API_VERSION },
      signal: options.signal,
    };
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
