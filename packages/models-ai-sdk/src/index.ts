export { aiSdkModel, type AiSdkModelOptions } from './ai-sdk-model';
export type { AiSdkLanguageModel } from './spec-types';
export {
  aiSdkEmbeddingModel,
  type AiSdkEmbeddingModelOptions,
  type AiSdkEmbeddingModelSpec,
} from './ai-sdk-embedding-model';
export { requestFetch, type RequestFetchOptions } from './request-fetch';
