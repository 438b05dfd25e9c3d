import {
  checkEmbedResponse,
  type EmbeddingModel,
  type EmbedRequest,
  type EmbedResponse,
} from '@adk/core';

import { conceptVector } from './concept-vector';

/**
 * A deterministic {@link EmbeddingModel} for tests and examples, no network: vectors from
 * {@link conceptVector}, in which phrases about the same thing in other words are close. Records
 * every request in `requests`, and counts the texts it embedded in `embeddedCount`.
 *
 * @example
 * ```ts
 * const embedder = new ConceptEmbeddingModel();
 * const memory = new SemanticMemoryService({ store: new InMemoryVectorStore(), embedder });
 * ```
 */
export class ConceptEmbeddingModel implements EmbeddingModel {
  readonly name: string;
  readonly dimensions: number;
  /** Every request received, in order. */
  readonly requests: EmbedRequest[] = [];
  /** How many texts were embedded so far. */
  embeddedCount = 0;

  /** @param options `dimensions` default 256 (at least 64); `name` default `concept-<dimensions>`. */
  constructor(options: { dimensions?: number; name?: string } = {}) {
    this.dimensions = Math.max(64, options.dimensions ?? 256);
    this.name = options.name ?? `concept-${this.dimensions}`;
  }

  async embed(
    request: EmbedRequest,
    options: { signal?: AbortSignal } = {},
  ): Promise<EmbedResponse> {
    options.signal?.throwIfAborted();
    this.requests.push({ ...request, values: [...request.values] });
    this.embeddedCount += request.values.length;
    const dimensions = request.dimensions ?? this.dimensions;
    return checkEmbedResponse(
      {
        embeddings: request.values.map((text) => conceptVector(text, dimensions)),
        usage: { inputTokens: request.values.join(' ').split(/\s+/).filter(Boolean).length },
      },
      { model: this.name, count: request.values.length, dimensions },
    );
  }
}
