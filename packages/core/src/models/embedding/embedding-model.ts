/**
 * What an embedding is for. Providers that support it (Gemini) tune the vector to the task; the
 * others ignore it. Memory embeds what it stores as `retrieval_document` and what it searches
 * with as `retrieval_query`.
 */
export type EmbeddingTaskType =
  | 'retrieval_query'
  | 'retrieval_document'
  | 'semantic_similarity'
  | 'classification'
  | 'clustering'
  | 'question_answering'
  | 'fact_verification'
  | 'code_retrieval_query';

/** One call of {@link EmbeddingModel.embed}. */
export interface EmbedRequest {
  /** The texts to embed, in order; the answer has one vector per text, in the same order. */
  values: readonly string[];
  /** What the vectors are for (see {@link EmbeddingTaskType}). */
  taskType?: EmbeddingTaskType | undefined;
  /**
   * Ask for vectors of this length (Gemini `outputDimensionality`, OpenAI `dimensions`). Default:
   * the model's {@link EmbeddingModel.dimensions} when set, else the provider's default.
   */
  dimensions?: number | undefined;
}

/** Per-call options of {@link EmbeddingModel.embed}. */
export interface EmbedOptions {
  /** Aborts the call; the model stops promptly and throws the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** Tokens an embedding call consumed, when the provider reports them. */
export interface EmbeddingUsage {
  inputTokens?: number | undefined;
}

/** The answer of {@link EmbeddingModel.embed}. */
export interface EmbedResponse {
  /** One vector per requested value, in request order, all of the same length. */
  embeddings: number[][];
  /** Summed over every HTTP call the request needed (batches); absent when unreported. */
  usage?: EmbeddingUsage | undefined;
}

/**
 * The embedding model contract: a name, an optional fixed vector length and one batch method.
 * Small on purpose, like {@link Model}: any provider or foreign SDK can implement it in a few
 * lines.
 *
 * Contract:
 * - `embed` returns exactly one vector per value, in order; the provider splits a request larger
 *   than its batch limit into several calls itself;
 * - every vector of one answer has the same length, and `dimensions` when the model declares it;
 *   a provider answer that breaks this is an `InvalidEmbeddingResponseError`, never a silently
 *   short vector;
 * - failed calls throw typed errors (provider packages: `ModelApiError`, retried before they are
 *   thrown when retryable).
 *
 * @example
 * ```ts
 * const embedder = createGemini().embeddingModel('gemini-embedding-001', { dimensions: 768 });
 * const { embeddings } = await embedder.embed({
 *   values: ['the user is building a billing service'],
 *   taskType: 'retrieval_document',
 * });
 * ```
 */
export interface EmbeddingModel {
  /**
   * Identifies the vectors: two models (or one model at two lengths) with different ids make
   * incomparable vectors. Stores keep it beside each vector and re-embed when it changes.
   */
  readonly name: string;
  /** Length of every vector this model returns, when it is fixed by its settings. */
  readonly dimensions?: number | undefined;
  /** Embed `request.values` (see the contract above). */
  embed(request: EmbedRequest, options?: EmbedOptions): Promise<EmbedResponse>;
}
