/**
 * OpenAI-compatible Chat Completions model provider (OpenAI, LiteLLM proxy, Ollama, vLLM...) for
 * ADK for TypeScript.
 */
export {
  applyFinish,
  fromOpenAIResponse,
  parseToolCall,
  toFinishReason,
  toOpenAIRequest,
  toUsage,
  type OpenAIChunk,
  type OpenAIRequest,
  type OpenAIRequestOptions,
  type OpenAIResponse,
} from './convert';
export {
  OPENAI_EMBED_BATCH_SIZE,
  OpenAIEmbeddingModel,
  type OpenAIEmbeddingModelOptions,
  type OpenAIEmbeddingSettings,
} from './embedding';
export { OPENAI_API_KEY_ENV_VARS, OpenAIModel, type OpenAIModelOptions } from './openai-model';
export {
  createOpenAI,
  OPENAI_DEFAULT_BASE_URL,
  OPENAI_MODEL_PATTERNS,
  type OpenAIProvider,
  type OpenAISettings,
} from './openai-provider';
export { readOpenAIStream } from './openai-stream';
export {
  OPENAI_REALTIME_CONNECT_TIMEOUT_MS,
  OPENAI_REALTIME_TRANSCRIPTION_MODEL,
  OpenAIRealtimeConnection,
  PcmResampler,
  REALTIME_OUTPUT_AUDIO_MIME_TYPE,
  REALTIME_PCM_RATE,
  toRealtimeItems,
  toRealtimeSession,
  type OpenAIRealtimeSettings,
  type RealtimeClientEvent,
  type RealtimeItem,
  type RealtimeServerEvent,
  type RealtimeSessionConfig,
} from './realtime';
export { registerOpenAI } from './register-openai';
export {
  CircuitBreaker,
  CircuitOpenError,
  MissingApiKeyError,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
  ModelTimeoutError,
} from '@adk/model-http';
