import { checkEmbedResponse, type EmbeddingModel, type EmbeddingTaskType } from '@adk/core';

import { normalize } from './vector-math';

/**
 * Embeds `texts` in one call of the model (which batches as its API needs), checks the answer
 * against the contract and returns unit-length vectors, so stores compare by dot product.
 */
export async function embedTexts(
  model: EmbeddingModel,
  texts: readonly string[],
  taskType: EmbeddingTaskType,
  signal?: AbortSignal,
): Promise<number[][]> {
  if (texts.length === 0) return [];
  const response = await model.embed({ values: texts, taskType }, { signal });
  checkEmbedResponse(response, {
    model: model.name,
    count: texts.length,
    dimensions: model.dimensions,
  });
  return response.embeddings.map(normalize);
}
