import type {
  GenerateOptions,
  LiveConnectOptions,
  LiveConnection,
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
import { GEMINI_DEFAULT_BASE_URL, type GeminiEndpoint } from './gemini-endpoint';
import { GeminiLiveConnection } from './live/gemini-live-connection';
import { liveSocketTarget } from './live/live-socket-target';
import { toLiveSetup } from './live/to-live-setup';
import { readGeminiStream } from './stream/read-gemini-stream';

/** Default longest wait from opening a live connection to the service's `setupComplete`. */
export const GEMINI_LIVE_SETUP_TIMEOUT_MS = 30_000;

/** Where live connections of a {@link GeminiModel} go (from the provider settings). */
export interface GeminiLiveOptions {
  /** The provider's REST base URL; the WebSocket URL is derived from it. */
  baseURL: string;
  /** Extra headers of the provider settings, sent with the upgrade request. */
  headers?: Record<string, string> | undefined;
  /** Extra query parameters of the provider settings. */
  query?: Record<string, string> | undefined;
  /** Longest wait for `setupComplete`. Default {@link GEMINI_LIVE_SETUP_TIMEOUT_MS}. */
  setupTimeoutMs?: number | undefined;
}

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
  private readonly live: GeminiLiveOptions | undefined;

  constructor(
    name: string,
    options: {
      http: HttpClient;
      endpoint: () => Promise<GeminiEndpoint>;
      /** Ask for streamed function-call arguments on streamed calls with tools (Gemini 3). */
      streamFunctionCallArguments?: boolean;
      /** Whether calls go to Vertex AI (decides `capabilities`). Default false: the Gemini API. */
      vertex?: boolean;
      /** Live API settings; without them `connectLive` uses the Gemini API's default URL. */
      live?: GeminiLiveOptions;
    },
  ) {
    this.name = name;
    this.apiModelId = name.replace(/^gemini\//, '').replace(/^models\//, '');
    this.http = options.http;
    this.endpoint = options.endpoint;
    this.streamFunctionCallArguments = options.streamFunctionCallArguments ?? false;
    this.capabilities = geminiCapabilities(this.apiModelId, options.vertex ?? false);
    this.live = options.live;
  }

  /**
   * Opens a Gemini Live API connection (`BidiGenerateContent` over WebSocket) for
   * `Runner.runLive`: sends `setup` built from the request (its `liveConnectConfig` included) and
   * resolves once the service answered `setupComplete`.
   *
   * @throws {ModelConnectionError} the service could not be reached.
   * @throws {ModelApiError} the upgrade was refused with an HTTP status.
   * @throws {ModelStreamError} the service closed the connection during setup (close code and
   *   reason in the message, `providerErrorType: 'websocket-close-<code>'`).
   * @throws {ModelTimeoutError} no `setupComplete` in time (`live.setupTimeoutMs` of the settings).
   * @throws {MissingApiKeyError} no key or token is configured.
   */
  async connectLive(
    request: LlmRequest,
    options: LiveConnectOptions = {},
  ): Promise<LiveConnection> {
    options.signal?.throwIfAborted();
    const endpoint = await this.endpoint();
    const target = liveSocketTarget({
      baseURL: this.live?.baseURL ?? GEMINI_DEFAULT_BASE_URL,
      endpoint,
      apiModelId: this.apiModelId,
      headers: this.live?.headers,
      query: this.live?.query,
    });
    return GeminiLiveConnection.open({
      url: target.url,
      headers: target.headers,
      setup: toLiveSetup(request, { model: target.model, vertex: endpoint.vertex }),
      provider: 'gemini',
      model: this.name,
      setupTimeoutMs: this.live?.setupTimeoutMs ?? GEMINI_LIVE_SETUP_TIMEOUT_MS,
      signal: options.signal,
    });
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
    const path = `${endpoint.modelsPath}/${encodeURIComponent(this.apiModelId)}`;
    if (!options.stream) {
      const { data } = await this.http.postJson<GeminiResponse>({
        ...call,
        path: `${path}:generateContent`,
      });
      yield { ...fromGeminiResponse(data), turnComplete: true };
      return;
    }
    const stream = await this.http.postStream({
      ...call,
      path: `${path}:streamGenerateContent`,
      query: { alt: 'sse' },
      headers: { ...call.headers, accept: 'text/event-stream' },
    });
    yield* readGeminiStream(stream.body, this.name);
  }
}
