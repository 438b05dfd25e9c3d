import { EmbeddingDimensionMismatchError } from './embedding-dimension-mismatch-error';
import type { EmbedResponse } from './embedding-model';
import { InvalidEmbeddingResponseError } from './invalid-embedding-response-error';

/**
 * Checks a provider's answer against the {@link EmbeddingModel} contract: one vector per value,
 * all of one length (`dimensions` when given), finite numbers only. Provider packages call it
 * before returning; a third-party model may too.
 *
 * @throws {InvalidEmbeddingResponseError} on a wrong count, unequal lengths or non-numbers.
 * @throws {EmbeddingDimensionMismatchError} when the vectors are not `dimensions` long.
 */
export function checkEmbedResponse(
  response: EmbedResponse,
  expected: { model: string; count: number; dimensions?: number | undefined },
): EmbedResponse {
  const { embeddings } = response;
  if (!Array.isArray(embeddings) || embeddings.length !== expected.count) {
    throw new InvalidEmbeddingResponseError({
      model: expected.model,
      message: `asked for ${expected.count} vectors, got ${Array.isArray(embeddings) ? embeddings.length : 'none'}`,
    });
  }
  const length = embeddings[0]?.length;
  for (const [index, vector] of embeddings.entries()) {
    if (!Array.isArray(vector) || vector.length === 0 || vector.length !== length) {
      throw new InvalidEmbeddingResponseError({
        model: expected.model,
        message: `vector ${index} is empty or not as long as the first one`,
      });
    }
    if (!vector.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new InvalidEmbeddingResponseError({
        model: expected.model,
        message: `vector ${index} holds something other than finite numbers`,
      });
    }
  }
  if (length !== undefined && expected.dimensions !== undefined && length !== expected.dimensions) {
    throw new EmbeddingDimensionMismatchError({
      expected: expected.dimensions,
      actual: length,
      model: expected.model,
    });
  }
  return response;
}
