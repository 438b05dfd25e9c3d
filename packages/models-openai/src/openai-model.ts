import type {
  GenerateOptions,
  LiveConnection,
  LiveConnectOptions,
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
import {
  connectOpenAIRealtime,
  type OpenAIRealtimeOptions,
} from './realtime/connect-openai-realtime';

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
  /** Endpoint of `connectLive` (the Realtime API); without it live connections are refused. */
  realtime?: OpenAIRealtimeOptions;
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

  /**
   * Opens a live connection over the OpenAI Realtime API (`wss://.../v1/realtime?model=...`, GA
   * event format), for `Runner.runLive`. Use a Realtime model (`gpt-realtime`,
   * `gpt-realtime-mini`...). Input audio is PCM16 at any rate (`audio/pcm;rate=16000` is
   * resampled to the API's 24 kHz); output audio is `audio/pcm;rate=24000`.
   *
   * The API has no session resumption handle: this connection never reports a
   * `liveSessionResumptionUpdate`. A dropped connection is resumed by opening a new one and
   * sending the conversation so far with `sendHistory` (the runner does so from the session).
   *
   * @throws ModelApiError (upgrade refused: 401, 429, 5xx), ModelConnectionError,
   * ModelTimeoutError (no `session.created` / `session.updated` in time), ModelStreamError
   * (`error` event, malformed frame or close during the handshake), MissingApiKeyError,
   * InvalidArgumentError (both response modalities), or the abort signal's reason.
   */
  async connectLive(
    request: LlmRequest,
    options: LiveConnectOptions = {},
  ): Promise<LiveConnection> {
    const { providerId } = this.options;
    const apiKey = this.options.requireApiKey
      ? resolveApiKey(this.options.apiKey, providerId, OPENAI_API_KEY_ENV_VARS)
      : (this.options.apiKey ?? process.env.OPENAI_API_KEY);
    return connectOpenAIRealtime(request, {
      provider: providerId,
      model: this.name,
      apiModelId: this.apiModelId,
      apiKey,
      apiKeyHeader: this.options.apiKeyHeader,
      realtime: this.options.realtime,
      signal: options.signal,
    });
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
