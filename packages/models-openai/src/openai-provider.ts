import {
  createProviderHttpClient,
  defaultErrorParser,
  defineProvider,
  type ProviderErrorInfo,
  type CallableModelProvider,
  type ProviderHttpSettings,
} from '@adk/model-http';

import {
  OpenAIEmbeddingModel,
  type OpenAIEmbeddingSettings,
} from './embedding/openai-embedding-model';
import { OpenAIModel } from './openai-model';
import type { OpenAIRealtimeSettings } from './realtime/connect-openai-realtime';

/** Default base URL: the OpenAI API. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** Model names the default `openai` provider serves. */
export const OPENAI_MODEL_PATTERNS: ReadonlyArray<string | RegExp> = [
  /^openai\//,
  /^gpt-/,
  /^chatgpt-/,
  /^o\d/,
];

/**
 * Settings of {@link createOpenAI}. The key defaults to `OPENAI_API_KEY` (read at call time) and
 * the base URL to `OPENAI_BASE_URL`, then the OpenAI API.
 */
export interface OpenAISettings extends ProviderHttpSettings {
  /**
   * Provider id (default `openai`). Give each OpenAI-compatible endpoint its own id (`ollama`,
   * `litellm`...) to register several in one registry.
   */
  id?: string;
  /** Name patterns this provider serves in a registry. Default {@link OPENAI_MODEL_PATTERNS}. */
  modelPatterns?: ReadonlyArray<string | RegExp>;
  /**
   * `provider/` prefixes removed from a model name before it is sent. Default `['openai/']`, so
   * `openai/gpt-4o` sends `gpt-4o` while `anthropic/claude-sonnet-4-5` is sent as is (what a
   * LiteLLM proxy expects). For a local server, e.g. `['ollama/']` sends `llama3.2` for `ollama/llama3.2`.
   */
  stripPrefixes?: string[];
  /**
   * Whether a missing API key is an error. Default: true for the OpenAI API, false for any other
   * base URL (Ollama, vLLM and LM Studio need none; the header is then omitted).
   */
  requireApiKey?: boolean;
  /**
   * How the key is sent: `authorization` (`Bearer <key>`, the default) or `api-key` (Azure
   * OpenAI's header).
   */
  apiKeyHeader?: 'authorization' | 'api-key';
  /** `OpenAI-Organization` header. */
  organization?: string;
  /** `OpenAI-Project` header. */
  project?: string;
  /** Role of the system instruction message. Default `system` (`developer` for o-series style). */
  systemRole?: 'system' | 'developer';
  /** Body field for `maxOutputTokens`. Default `max_completion_tokens` on the OpenAI API, `max_tokens` elsewhere. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Send `stream_options.include_usage` when streaming. Default true. */
  includeUsage?: boolean;
  /**
   * Whether the endpoint honours `response_format` (a JSON schema) together with `tools`, declared
   * to core as `capabilities.responseSchemaWithTools`. Default: true for the OpenAI API, false for
   * any other base URL (compatible servers differ; an agent with `outputSchema` and tools then
   * answers through core's `set_model_response` tool, which needs only function calling).
   */
  responseSchemaWithTools?: boolean;
  /**
   * Live connections (`model.connectLive`, for `Runner.runLive`) over the Realtime API at
   * `{baseURL}/realtime`, with the same key, headers and query parameters. Timeouts here.
   */
  realtime?: OpenAIRealtimeSettings;
}

/**
 * An OpenAI-compatible provider: call it with a model name (or use `languageModel(name)`);
 * `embeddingModel` gives an embedding model over the same endpoint and settings.
 */
export type OpenAIProvider = CallableModelProvider<OpenAIModel> & {
  /**
   * An embedding model, e.g. `embeddingModel('text-embedding-3-small', { dimensions: 512 })`
   * (the provider's `stripPrefixes` apply). Each call creates a new instance.
   */
  embeddingModel(modelName: string, settings?: OpenAIEmbeddingSettings): OpenAIEmbeddingModel;
};

/**
 * Creates a Chat Completions provider for OpenAI or any compatible endpoint (LiteLLM proxy,
 * Ollama, vLLM, LM Studio, Groq, Together, OpenRouter, Azure OpenAI's v1 API).
 *
 * @example
 * ```ts
 * import { createOpenAI } from '@adk/models-openai';
 * const openai = createOpenAI(); // OPENAI_API_KEY, OPENAI_BASE_URL
 * const agent = new LlmAgent({ name: 'assistant', model: openai('openai/gpt-4o') });
 * const ollama = createOpenAI({ id: 'ollama', baseURL: 'http://127.0.0.1:11434/v1',
 *   modelPatterns: [/^ollama\//], stripPrefixes: ['ollama/'] });
 * ```
 */
export function createOpenAI(settings: OpenAISettings = {}): OpenAIProvider {
  const id = settings.id ?? 'openai';
  const baseURL = settings.baseURL ?? process.env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
  const isOpenAI = /^https:\/\/api\.openai\.com(\/|$)/.test(baseURL);
  const headers: Record<string, string> = {};
  if (settings.organization) headers['openai-organization'] = settings.organization;
  if (settings.project) headers['openai-project'] = settings.project;
  const http = createProviderHttpClient(
    id,
    { ...settings, baseURL },
    { baseURL, headers, parseErrorBody },
  );
  const prefixes = settings.stripPrefixes ?? ['openai/'];
  const provider = defineProvider({
    id,
    patterns: settings.modelPatterns ?? OPENAI_MODEL_PATTERNS,
    create: (name) =>
      new OpenAIModel(name, {
        http,
        providerId: id,
        apiModelId: stripPrefix(name, prefixes),
        apiKey: settings.apiKey,
        requireApiKey: settings.requireApiKey ?? isOpenAI,
        systemRole: settings.systemRole ?? 'system',
        maxTokensField:
          settings.maxTokensField ?? (isOpenAI ? 'max_completion_tokens' : 'max_tokens'),
        includeUsage: settings.includeUsage ?? true,
        apiKeyHeader: settings.apiKeyHeader ?? 'authorization',
        responseSchemaWithTools: settings.responseSchemaWithTools ?? isOpenAI,
        realtime: {
          ...settings.realtime,
          baseURL,
          headers: { ...headers, ...settings.headers },
          ...(settings.query ? { query: settings.query } : {}),
        },
      }),
  });
  const embeddingModel = (modelName: string, embeddingSettings?: OpenAIEmbeddingSettings) =>
    new OpenAIEmbeddingModel(modelName, {
      http,
      providerId: id,
      apiModelId: stripPrefix(modelName, prefixes),
      apiKey: settings.apiKey,
      requireApiKey: settings.requireApiKey ?? isOpenAI,
      apiKeyHeader: settings.apiKeyHeader ?? 'authorization',
      settings: embeddingSettings,
    });
  Object.defineProperty(provider, 'embeddingModel', { value: embeddingModel, enumerable: true });
  return provider as OpenAIProvider;
}

/** OpenAI errors carry a precise `code` (`rate_limit_exceeded`) and a broader `type`; prefer the code. */
function parseErrorBody(body: unknown): ProviderErrorInfo | undefined {
  const info = defaultErrorParser(body);
  const error = (body as { error?: { code?: unknown } } | undefined)?.error;
  if (info && error && typeof error === 'object' && typeof error.code === 'string')
    info.type = error.code;
  return info;
}

function stripPrefix(name: string, prefixes: string[]): string {
  const prefix = prefixes.find((p) => name.startsWith(p));
  return prefix ? name.slice(prefix.length) : name;
}
