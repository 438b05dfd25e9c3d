import {
  checkEmbedResponse,
  InvalidArgumentError,
  type EmbeddingModel,
  type EmbeddingTaskType,
  type EmbedOptions,
  type EmbedRequest,
  type EmbedResponse,
} from '@adk/core';

import { providerFamily } from './provider-family';
import { withRetries } from './with-retries';
import { specificationVersionOf } from './specification-version';

/**
 * The parts of the AI SDK's embedding model specification (v2 of `ai` 5, v3 of `ai` 6, v4 of
 * `ai` 7) this adapter uses, declared structurally: any `@ai-sdk/*` provider's
 * `.textEmbeddingModel(...)` / `.embedding(...)` fits.
 */
export interface AiSdkEmbeddingModelSpec {
  readonly specificationVersion: string;
  readonly provider: string;
  readonly modelId: string;
  /** Most values one `doEmbed` call takes; the adapter splits larger requests. */
  readonly maxEmbeddingsPerCall: PromiseLike<number | undefined> | number | undefined;
  doEmbed(options: {
    values: string[];
    abortSignal?: AbortSignal;
    providerOptions?: Record<string, Record<string, unknown>>;
    headers?: Record<string, string | undefined>;
  }): PromiseLike<{ embeddings: number[][]; usage?: { tokens: number } | undefined }>;
}

/** Options of {@link aiSdkEmbeddingModel}. */
export interface AiSdkEmbeddingModelOptions {
  /** The name vectors are stored under (default: the model's `modelId`). */
  name?: string;
  /**
   * Length of every vector: asked of providers that can shorten theirs (OpenAI `dimensions`,
   * Google `outputDimensionality`) and checked on every answer.
   */
  dimensions?: number;
  /** Retries of a call that failed with a retryable error (default 2). */
  maxRetries?: number;
  /**
   * Backoff of those retries (defaults 500 ms doubling to 8 s, with jitter); `sleep` replaces
   * the wait (tests).
   */
  retry?: {
    initialDelayMs?: number;
    maxDelayMs?: number;
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  };
  /** Extra HTTP headers on every call. */
  headers?: Record<string, string>;
}

/**
 * Any embedding model of the Vercel AI SDK's provider specification (v2, v3 or v4) as core's
 * `EmbeddingModel`, for `SemanticMemoryService` and the memory tools: Mistral, Cohere, Bedrock,
 * Azure, Ollama, Voyage... Requests larger than the model's `maxEmbeddingsPerCall` are split
 * into calls made one after another; retryable failures are retried with backoff; failures are
 * core's typed model errors; usage is summed over the calls. The task type and the vector length
 * are passed where the provider takes them (Google `taskType` / `outputDimensionality`, OpenAI
 * `dimensions`), ignored elsewhere.
 *
 * @example
 * ```ts
 * import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
 * import { aiSdkEmbeddingModel } from '@adk/models-ai-sdk';
 *
 * const ollama = createOpenAICompatible({ name: 'ollama', baseURL: 'http://127.0.0.1:11434/v1' });
 * const embedder = aiSdkEmbeddingModel(ollama.textEmbeddingModel('nomic-embed-text'));
 * ```
 * @throws InvalidArgumentError for an object that is not a v2, v3 or v4 embedding model.
 */
export function aiSdkEmbeddingModel(
  model: AiSdkEmbeddingModelSpec,
  options: AiSdkEmbeddingModelOptions = {},
): EmbeddingModel {
  return new AiSdkEmbeddingModel(model, options);
}

class AiSdkEmbeddingModel implements EmbeddingModel {
  readonly name: string;
  readonly dimensions: number | undefined;

  constructor(
    private readonly model: AiSdkEmbeddingModelSpec,
    private readonly options: AiSdkEmbeddingModelOptions,
  ) {
    specificationVersionOf(model, {
      factory: 'aiSdkEmbeddingModel',
      kind: 'embedding model',
      method: 'doEmbed',
    });
    if (
      options.dimensions !== undefined &&
      (!Number.isInteger(options.dimensions) || options.dimensions < 1)
    ) {
      throw new InvalidArgumentError({
        message: `aiSdkEmbeddingModel: dimensions must be an integer >= 1, got ${String(options.dimensions)}.`,
        argument: 'dimensions',
      });
    }
    this.name = options.name ?? model.modelId;
    this.dimensions = options.dimensions;
  }

  async embed(request: EmbedRequest, options: EmbedOptions = {}): Promise<EmbedResponse> {
    const { signal } = options;
    signal?.throwIfAborted();
    const values = [...request.values];
    if (values.length === 0) return { embeddings: [] };
    const dimensions = request.dimensions ?? this.dimensions;
    const providerOptions = providerOptionsFor(this.model.provider, request.taskType, dimensions);
    const limit = (await this.model.maxEmbeddingsPerCall) ?? values.length;
    const batch = Math.max(1, Math.floor(limit));
    const embeddings: number[][] = [];
    let tokens: number | undefined;
    for (let start = 0; start < values.length; start += batch) {
      const slice = values.slice(start, start + batch);
      const result = await withRetries(
        () =>
          this.model.doEmbed({
            values: slice,
            ...(signal ? { abortSignal: signal } : {}),
            ...(providerOptions ? { providerOptions } : {}),
            ...(this.options.headers ? { headers: { ...this.options.headers } } : {}),
          }),
        signal,
        {
          maxRetries: this.options.maxRetries ?? 2,
          initialDelayMs: this.options.retry?.initialDelayMs ?? 500,
          maxDelayMs: this.options.retry?.maxDelayMs ?? 8_000,
          provider: this.model.provider,
          model: this.model.modelId,
          streaming: false,
          ...(this.options.retry?.sleep ? { sleep: this.options.retry.sleep } : {}),
        },
      );
      checkEmbedResponse(
        { embeddings: result.embeddings },
        { model: this.name, count: slice.length, dimensions: dimensions ?? embeddings[0]?.length },
      );
      for (const vector of result.embeddings) embeddings.push(vector);
      if (result.usage?.tokens !== undefined) tokens = (tokens ?? 0) + result.usage.tokens;
    }
    return tokens === undefined ? { embeddings } : { embeddings, usage: { inputTokens: tokens } };
  }
}

/** The provider options carrying the task type and the vector length, where a provider has them. */
function providerOptionsFor(
  provider: string,
  taskType: EmbeddingTaskType | undefined,
  dimensions: number | undefined,
): Record<string, Record<string, unknown>> | undefined {
  if (providerFamily(provider) === 'google') {
    const google: Record<string, unknown> = {};
    if (taskType) google.taskType = taskType.toUpperCase();
    if (dimensions !== undefined) google.outputDimensionality = dimensions;
    return Object.keys(google).length > 0 ? { google } : undefined;
  }
  // OpenAI and the OpenAI-compatible providers (Ollama, LM Studio, vLLM...) take `dimensions`;
  // the others ignore keys that are not theirs.
  return dimensions === undefined
    ? undefined
    : { openai: { dimensions }, openaiCompatible: { dimensions } };
}
