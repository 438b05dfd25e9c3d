import type {
  GenerateOptions,
  LlmRequest,
  LlmResponse,
  Model,
  ModelCapabilities,
  ProviderToolType,
} from '@adk/core';
import { resolveApiKey, type HttpClient } from '@adk/model-http';

import { fromOpenAIResponse } from './convert/from-openai-response';
import type { OpenAIResponse } from './convert/openai-wire';
import { toOpenAIRequest } from './convert/to-openai-request';
import { isSearchModel } from './convert/openai-web-search';
import { readOpenAIStream } from './openai-stream';

/** Environment variable read when no `apiKey` is set. */
export const OPENAI_API_KEY_ENV_VARS = ['OPENAI_API_KEY'] as const;

/** How an {@link OpenAIModel} talks to its endpoint; built by `createOpenAI`. */
export interface OpenAIModelOptions {
  http: HttpClient;
  /** Provider id used in errors (`openai`, or the id given to `createOpenAI`). */
  providerId: string;
  /** The model id sent in the request body. */
  apiModelId: string;
  apiKey?: string;
  /** When false, a missing key sends no `Authorization` header instead of failing (local servers). */
  requireApiKey: boolean;
  systemRole: 'system' | 'developer';
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  includeUsage: boolean;
  /** `authorization` (Bearer) or `api-key` (Azure OpenAI). */
  apiKeyHeader: 'authorization' | 'api-key';
  /** Declared as `capabilities.responseSchemaWithTools` (see `OpenAISettings`). Default false. */
  responseSchemaWithTools?: boolean;
  /**
   * Declared as `capabilities.providerTools`. Default: `['webSearch']` for search models
   * (`web_search_options`; see `isSearchModel`), none for others.
   */
  providerTools?: readonly ProviderToolType[];
}

/**
 * A model behind an OpenAI-compatible Chat Completions endpoint (`POST {baseURL}/chat/completions`).
 * Create it with `createOpenAI()(name)` rather than directly.
 */
export class OpenAIModel implements Model {
  readonly name: string;
  /** The model id sent to the endpoint (see `createOpenAI` for prefix handling). */
  readonly apiModelId: string;
  /**
   * `responseSchemaWithTools`: Chat Completions accepts `response_format` next to `tools` on the
   * OpenAI API; for other endpoints it is what `createOpenAI` was told (default false).
   * `providerTools`: `webSearch` for search models (see `OpenAIModelOptions.providerTools`).
   */
  readonly capabilities: ModelCapabilities;
  private readonly options: OpenAIModelOptions;

  constructor(name: string, options: OpenAIModelOptions) {
    this.name = name;
    this.apiModelId = options.apiModelId;
    this.options = options;
    this.capabilities = {
      responseSchemaWithTools: options.responseSchemaWithTools ?? false,
      providerTools:
        options.providerTools ?? (isSearchModel(options.apiModelId) ? ['webSearch'] : []),
    };
  }

  async *generate(
    request: LlmRequest,
    options: GenerateOptions,
  ): AsyncGenerator<LlmResponse, void> {
    const { http, providerId } = this.options;
    const apiKey = this.options.requireApiKey
      ? resolveApiKey(this.options.apiKey, providerId, OPENAI_API_KEY_ENV_VARS)
      : (this.options.apiKey ?? process.env.OPENAI_API_KEY);
    const body = toOpenAIRequest(request, {
      model: this.apiModelId,
      systemRole: this.options.systemRole,
      maxTokensField: this.options.maxTokensField,
    });
    const call = {
      model: this.name,
      path: '/chat/completions',
      headers:
        this.options.apiKeyHeader === 'api-key'
          ? { 'api-key': apiKey }
          : { authorization: apiKey ? `Bearer ${apiKey}` : undefined },
      signal: options.signal,
    };
    if (!options.stream) {
      const { data } = await http.postJson<OpenAIResponse>({ ...call, body });
      yield fromOpenAIResponse(data);
      return;
    }
    const streamBody = {
      ...body,
      stream: true,
      ...(this.options.includeUsage ? { stream_options: { include_usage: true } } : {}),
    };
    const stream = await http.postStream({
      ...call,
      body: streamBody,
      headers: { ...call.headers, accept: 'text/event-stream' },
    });
    yield* readOpenAIStream(stream.body, this.name, providerId);
  }
}
