export {
  GEMINI_EMBED_BATCH_SIZE,
  GeminiEmbeddingModel,
  type GeminiEmbeddingSettings,
} from './gemini-embedding-model';
