import {
  checkEmbedResponse,
  type EmbeddingModel,
  type EmbedOptions,
  type EmbedRequest,
  type EmbedResponse,
} from '@adk/core';
import { resolveApiKey, type HttpClient } from '@adk/model-http';

/** Inputs in one `/embeddings` call (OpenAI accepts up to 2048). */
export const OPENAI_EMBED_BATCH_SIZE = 2048;

/** Settings of one OpenAI embedding model (`createOpenAI().embeddingModel(name, settings)`). */
export interface OpenAIEmbeddingSettings {
  /**
   * Vector length (`dimensions`), for `text-embedding-3-*` models (small: up to 1536, large: up to
   * 3072). Older models and some compatible servers refuse it.
   */
  dimensions?: number;
}

/** How an {@link OpenAIEmbeddingModel} talks to its endpoint; built by `createOpenAI`. */
export interface OpenAIEmbeddingModelOptions {
  http: HttpClient;
  providerId: string;
  /** The model id sent in the request body. */
  apiModelId: string;
  apiKey?: string | undefined;
  requireApiKey: boolean;
  apiKeyHeader: 'authorization' | 'api-key';
  settings?: OpenAIEmbeddingSettings | undefined;
}

interface EmbeddingsAnswer {
  data?: { index?: number; embedding?: number[] }[];
  usage?: { prompt_tokens?: number };
}

/**
 * An embedding model behind an OpenAI-compatible `POST {baseURL}/embeddings` endpoint (OpenAI,
 * Azure OpenAI's v1 API, Ollama, vLLM, LiteLLM...). Asks for plain floats; splits more than 2048
 * texts into several calls; sums the reported `prompt_tokens` into `usage.inputTokens`. The task
 * type is ignored (OpenAI has none). Retries and typed errors come from the shared HTTP layer.
 */
export class OpenAIEmbeddingModel implements EmbeddingModel {
  readonly name: string;
  readonly dimensions: number | undefined;
  readonly apiModelId: string;
  readonly #options: OpenAIEmbeddingModelOptions;

  constructor(name: string, options: OpenAIEmbeddingModelOptions) {
    this.name = name;
    this.apiModelId = options.apiModelId;
    this.dimensions = options.settings?.dimensions;
    this.#options = options;
  }

  async embed(request: EmbedRequest, options: EmbedOptions = {}): Promise<EmbedResponse> {
    const { http, providerId } = this.#options;
    const values = [...request.values];
    const dimensions = request.dimensions ?? this.dimensions;
    if (values.length === 0) return { embeddings: [] };
    const apiKey = this.#options.requireApiKey
      ? resolveApiKey(this.#options.apiKey, providerId, ['OPENAI_API_KEY'])
      : (this.#options.apiKey ?? process.env.OPENAI_API_KEY);
    const headers =
      this.#options.apiKeyHeader === 'api-key'
        ? { 'api-key': apiKey }
        : { authorization: apiKey ? `Bearer ${apiKey}` : undefined };
    const embeddings: number[][] = [];
    let inputTokens: number | undefined;
    for (let start = 0; start < values.length; start += OPENAI_EMBED_BATCH_SIZE) {
      const batch = values.slice(start, start + OPENAI_EMBED_BATCH_SIZE);
      const { data } = await http.postJson<EmbeddingsAnswer>({
        model: this.name,
        path: '/embeddings',
        headers,
        signal: options.signal,
        body: {
          model: this.apiModelId,
          input: batch,
          encoding_format: 'float',
          ...(dimensions !== undefined ? { dimensions } : {}),
        },
      });
      // `index` says which input a vector belongs to; order by it rather than trusting the order.
      const items = [...(data.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
      embeddings.push(...items.map((item) => item.embedding as number[]));
      if (typeof data.usage?.prompt_tokens === 'number')
        inputTokens = (inputTokens ?? 0) + data.usage.prompt_tokens;
    }
    return checkEmbedResponse(
      { embeddings, ...(inputTokens !== undefined ? { usage: { inputTokens } } : {}) },
      { model: this.name, count: values.length, dimensions },
    );
  }
}
