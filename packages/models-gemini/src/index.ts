/**
 * Google Gemini model provider for ADK for TypeScript.
 */
export {
  CONTINUE_TEXT,
  EMPTY_CONTENTS_TEXT,
  fromGeminiResponse,
  LEADING_USER_TEXT,
  parseGeminiError,
  toGeminiRequest,
} from './convert';
export type {
  GeminiFunctionCall,
  GeminiPartialArg,
  GeminiRequest,
  GeminiResponse,
} from './convert';
export {
  GEMINI_API_KEY_ENV_VARS,
  GEMINI_DEFAULT_BASE_URL,
  type GeminiEndpoint,
  type VertexAISettings,
} from './gemini-endpoint';
export { geminiCapabilities, geminiMajorVersion } from './gemini-capabilities';
export { GEMINI_LIVE_SETUP_TIMEOUT_MS, GeminiModel, type GeminiLiveOptions } from './gemini-model';
export {
  GeminiLiveConnection,
  liveSocketTarget,
  toLiveSetup,
  VERTEX_LIVE_API_VERSION,
  type GeminiLiveConnectionOptions,
  type GeminiLiveClientMessage,
  type GeminiLiveServerMessage,
  type GeminiLiveSetup,
  type LiveSocketTarget,
} from './live';
export {
  GEMINI_EMBED_BATCH_SIZE,
  GeminiEmbeddingModel,
  type GeminiEmbeddingSettings,
} from './embedding';
export {
  createGemini,
  GEMINI_MODEL_PATTERNS,
  type GeminiProvider,
  type GeminiSettings,
} from './gemini-provider';
export { registerGemini } from './register-gemini';
export { readGeminiStream, type StreamedArgumentDelta, type StreamingFunctionCall } from './stream';
export {
  CircuitBreaker,
  CircuitOpenError,
  MissingApiKeyError,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
  ModelTimeoutError,
} from '@adk/model-http';
