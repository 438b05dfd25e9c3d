export { checkEmbedResponse } from './check-embed-response';
export { EmbeddingDimensionMismatchError } from './embedding-dimension-mismatch-error';
export type {
  EmbeddingModel,
  EmbeddingTaskType,
  EmbeddingUsage,
  EmbedOptions,
  EmbedRequest,
  EmbedResponse,
} from './embedding-model';
export { InvalidEmbeddingResponseError } from './invalid-embedding-response-error';
