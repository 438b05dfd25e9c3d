import {
  checkEmbedResponse,
  InvalidArgumentError,
  type EmbeddingModel,
  type EmbedOptions,
  type EmbedRequest,
  type EmbedResponse,
} from '@adk/core';
import type { HttpClient } from '@adk/model-http';

import type { GeminiEndpoint } from '../gemini-endpoint';

/** Requests in one `batchEmbedContents` call (the Gemini API's limit). */
export const GEMINI_EMBED_BATCH_SIZE = 100;

/** Settings of one Gemini embedding model (`createGemini().embeddingModel(name, settings)`). */
export interface GeminiEmbeddingSettings {
  /**
   * Vector length (`outputDimensionality`): `gemini-embedding-001` accepts 128 to 3072 (default
   * 3072; 768, 1536 and 3072 are the recommended sizes).
   */
  dimensions?: number;
}

interface ContentEmbedding {
  values?: number[];
}

/**
 * A Gemini embedding model over the Gemini API: `models/{model}:embedContent` for one text,
 * `models/{model}:batchEmbedContents` for several (100 per call, the calls made one after
 * another). Retries, timeouts and typed errors come from the shared HTTP layer. The Gemini API
 * reports no token usage, so `usage` is absent. Vertex AI's embedding endpoint (`:predict`) is not
 * supported yet: a model of a Vertex AI provider throws `InvalidArgumentError` when called.
 */
export class GeminiEmbeddingModel implements EmbeddingModel {
  readonly name: string;
  readonly dimensions: number | undefined;
  /** The model id sent to the API (`gemini/` and `models/` prefixes removed). */
  readonly apiModelId: string;
  readonly #http: HttpClient;
  readonly #endpoint: () => Promise<GeminiEndpoint>;

  constructor(
    name: string,
    options: {
      http: HttpClient;
      endpoint: () => Promise<GeminiEndpoint>;
      settings?: GeminiEmbeddingSettings;
    },
  ) {
    this.name = name;
    this.apiModelId = name.replace(/^gemini\//, '').replace(/^models\//, '');
    this.dimensions = options.settings?.dimensions;
    this.#http = options.http;
    this.#endpoint = options.endpoint;
  }

  async embed(request: EmbedRequest, options: EmbedOptions = {}): Promise<EmbedResponse> {
    const values = [...request.values];
    const dimensions = request.dimensions ?? this.dimensions;
    if (values.length === 0) return { embeddings: [] };
    const endpoint = await this.#endpoint();
    if (endpoint.vertex) {
      throw new InvalidArgumentError({
        argument: 'vertexai',
        message: 'Gemini embeddings are supported on the Gemini API only, not on Vertex AI yet',
      });
    }
    const path = `${endpoint.modelsPath}/${encodeURIComponent(this.apiModelId)}`;
    const one = (text: string) => ({
      content: { parts: [{ text }] },
      ...(request.taskType ? { taskType: request.taskType.toUpperCase() } : {}),
      ...(dimensions !== undefined ? { outputDimensionality: dimensions } : {}),
    });
    const embeddings: number[][] = [];
    for (let start = 0; start < values.length; start += GEMINI_EMBED_BATCH_SIZE) {
      const batch = values.slice(start, start + GEMINI_EMBED_BATCH_SIZE);
      const call = { model: this.name, headers: endpoint.headers, signal: options.signal };
      if (batch.length === 1) {
        const { data } = await this.#http.postJson<{ embedding?: ContentEmbedding }>({
          ...call,
          path: `${path}:embedContent`,
          body: one(batch[0]!),
        });
        embeddings.push(data.embedding?.values as number[]);
      } else {
        const model = `models/${this.apiModelId}`;
        const { data } = await this.#http.postJson<{ embeddings?: ContentEmbedding[] }>({
          ...call,
          path: `${path}:batchEmbedContents`,
          body: { requests: batch.map((text) => ({ model, ...one(text) })) },
        });
        // A short or long answer is caught by the count check below, never padded.
        embeddings.push(...(data.embeddings ?? []).map((e) => e.values as number[]));
      }
    }
    return checkEmbedResponse(
      { embeddings },
      { model: this.name, count: values.length, dimensions },
    );
  }
}
