import type {
  CacheMetadata,
  GenerateOptions,
  LlmRequest,
  LlmResponse,
  Model,
  ModelCapabilities,
} from '@adk/core';
import type { HttpClient } from '@adk/model-http';

import { fromGeminiResponse } from './convert/from-gemini-response';
import type { GeminiResponse } from './convert/gemini-wire';
import { toGeminiRequest } from './convert/to-gemini-request';
import { geminiCapabilities } from './gemini-capabilities';
import type { GeminiEndpoint } from './gemini-endpoint';
import { readGeminiStream } from './stream/read-gemini-stream';
import { applyContextCache, withCacheMetadata } from './context-cache';

/**
 * A Gemini model over the Gemini API or Vertex AI: `generateContent`, or
 * `streamGenerateContent?alt=sse` when streaming. Create it with `createGemini()(name)` rather than directly.
 */
export class GeminiModel implements Model {
  readonly name: string;
  /** The model id sent to the API (`gemini/` and `models/` prefixes removed). */
  readonly apiModelId: string;
  /**
   * `responseSchemaWithTools` only for Gemini 3 and later on Vertex AI (see
   * `geminiCapabilities`); elsewhere an agent with `outputSchema` and tools answers through
   * core's `set_model_response` tool.
   */
  readonly capabilities: ModelCapabilities;
  private readonly http: HttpClient;
  private readonly endpoint: () => Promise<GeminiEndpoint>;
  private readonly streamFunctionCallArguments: boolean;

  constructor(
    name: string,
    options: {
      http: HttpClient;
      endpoint: () => Promise<GeminiEndpoint>;
      /** Ask for streamed function-call arguments on streamed calls with tools (Gemini 3). */
      streamFunctionCallArguments?: boolean;
      /** Whether calls go to Vertex AI (decides `capabilities`). Default false: the Gemini API. */
      vertex?: boolean;
    },
  ) {
    this.name = name;
    this.apiModelId = name.replace(/^gemini\//, '').replace(/^models\//, '');
    this.http = options.http;
    this.endpoint = options.endpoint;
    this.streamFunctionCallArguments = options.streamFunctionCallArguments ?? false;
    this.capabilities = geminiCapabilities(this.apiModelId, options.vertex ?? false);
  }

  async *generate(
    request: LlmRequest,
    options: GenerateOptions,
  ): AsyncGenerator<LlmResponse, void> {
    const endpoint = await this.endpoint();
    const call = {
      model: this.name,
      body: toGeminiRequest(request, {
        vertex: endpoint.vertex,
        streamFunctionCallArguments: options.stream && this.streamFunctionCallArguments,
      }),
      headers: endpoint.headers,
      signal: options.signal,
    };
    // The app's context caching (`applyContextCache`): the body may go through a cache.
    let cacheMetadata: CacheMetadata | undefined;
    if (request.cacheConfig) {
      const cached = await applyContextCache(request, call.body, {
        http: this.http,
        endpoint,
        model: this.name,
        apiModelId: this.apiModelId,
        signal: options.signal,
      });
      call.body = cached.body;
      cacheMetadata = cached.cacheMetadata;
    }
    const path = `${endpoint.modelsPath}/${encodeURIComponent(this.apiModelId)}`;
    if (!options.stream) {
      const { data } = await this.http.postJson<GeminiResponse>({
        ...call,
        path: `${path}:generateContent`,
      });
      const response: LlmResponse = { ...fromGeminiResponse(data), turnComplete: true };
      yield cacheMetadata ? { ...response, cacheMetadata } : response;
      return;
    }
    const stream = await this.http.postStream({
      ...call,
      path: `${path}:streamGenerateContent`,
      query: { alt: 'sse' },
      headers: { ...call.headers, accept: 'text/event-stream' },
    });
    const responses = readGeminiStream(stream.body, this.name);
    yield* cacheMetadata ? withCacheMetadata(responses, cacheMetadata) : responses;
  }
}
