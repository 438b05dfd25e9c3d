import {
  createProviderHttpClient,
  defineProvider,
  type CallableModelProvider,
  type ProviderHttpSettings,
} from '@adk/model-http';

import { parseGeminiError } from './convert/parse-gemini-error';
import {
  defaultBaseURL,
  resolveGeminiEndpoint,
  usesVertexAI,
  type VertexAISettings,
} from './gemini-endpoint';
import {
  GeminiEmbeddingModel,
  type GeminiEmbeddingSettings,
} from './embedding/gemini-embedding-model';
import { GeminiModel } from './gemini-model';

/**
 * Settings of {@link createGemini}. The API key defaults to `GEMINI_API_KEY`, then `GOOGLE_API_KEY`,
 * then `GOOGLE_GENAI_API_KEY`, read when a call is made.
 */
export interface GeminiSettings extends ProviderHttpSettings {
  /**
   * Use Vertex AI instead of the Gemini API: `true`, or settings (project, location, access
   * token). Default: `GOOGLE_GENAI_USE_VERTEXAI` (`true`/`1`).
   */
  vertexai?: VertexAISettings | boolean;
  /**
   * Gemini 3: ask for function-call arguments streamed in pieces
   * (`toolConfig.functionCallingConfig.streamFunctionCallArguments`) on streamed calls that offer
   * tools. The pieces are assembled into complete calls in the final response; partial responses
   * report progress in `customMetadata.streamingFunctionCall`. Google documents the option for
   * Vertex AI. Default `false`.
   */
  streamFunctionCallArguments?: boolean;
  /** Live API (`connectLive`) settings. */
  live?: {
    /** Longest wait from connecting to the service's `setupComplete`, in ms. Default 30 000. */
    setupTimeoutMs?: number;
  };
}

/**
 * A Gemini provider: call it with a model name (or use `languageModel(name)`); `embeddingModel`
 * gives an embedding model (`gemini-embedding-001`) over the same HTTP settings.
 */
export type GeminiProvider = CallableModelProvider<GeminiModel> & {
  /**
   * An embedding model, e.g. `embeddingModel('gemini-embedding-001', { dimensions: 768 })`.
   * Each call creates a new instance (they share the provider's HTTP client).
   */
  embeddingModel(modelName: string, settings?: GeminiEmbeddingSettings): GeminiEmbeddingModel;
};

/** Model names a Gemini provider serves: `gemini-*`, `models/gemini-*`, `gemini/*` (LiteLLM style). */
export const GEMINI_MODEL_PATTERNS: ReadonlyArray<string | RegExp> = [
  /^gemini-/,
  /^models\//,
  /^gemini\//,
  /^gemma-/,
  /^learnlm-/,
];

/**
 * Creates a Gemini model provider.
 *
 * @example
 * ```ts
 * import { createGemini } from '@adk/models-gemini';
 * const gemini = createGemini({ apiKey: process.env.GEMINI_API_KEY });
 * const agent = new LlmAgent({ name: 'assistant', model: gemini('gemini-2.5-flash') });
 * ```
 */
export function createGemini(settings: GeminiSettings = {}): GeminiProvider {
  const http = createProviderHttpClient('gemini', settings, {
    baseURL: defaultBaseURL(settings.vertexai),
    parseErrorBody: parseGeminiError,
  });
  const endpoint = () => resolveGeminiEndpoint(settings.apiKey, settings.vertexai);
  const vertex = usesVertexAI(settings.vertexai);
  const provider = defineProvider({
    id: 'gemini',
    patterns: GEMINI_MODEL_PATTERNS,
    create: (name) =>
      new GeminiModel(name, {
        http,
        endpoint,
        streamFunctionCallArguments: settings.streamFunctionCallArguments,
        vertex,
        live: {
          baseURL: settings.baseURL ?? defaultBaseURL(settings.vertexai),
          headers: settings.headers,
          query: settings.query,
          setupTimeoutMs: settings.live?.setupTimeoutMs,
        },
      }),
  });
  const embeddingModel = (modelName: string, embeddingSettings?: GeminiEmbeddingSettings) =>
    new GeminiEmbeddingModel(modelName, { http, endpoint, settings: embeddingSettings });
  Object.defineProperty(provider, 'embeddingModel', { value: embeddingModel, enumerable: true });
  return provider as GeminiProvider;
}
