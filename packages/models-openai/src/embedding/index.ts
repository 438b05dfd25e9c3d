export {
  OPENAI_EMBED_BATCH_SIZE,
  OpenAIEmbeddingModel,
  type OpenAIEmbeddingModelOptions,
  type OpenAIEmbeddingSettings,
} from './openai-embedding-model';
