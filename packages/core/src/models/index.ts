export type {
  FunctionDeclaration,
  GenerateContentConfig,
  JsonSchema,
  LlmRequest,
  ProviderToolSpec,
  ProviderToolType,
  ThinkingConfig,
  ThinkingLevel,
  ToolChoice,
  ToolDeclarations,
} from './llm-request';
export type {
  Citation,
  CitationMetadata,
  FinishReason,
  GroundingChunk,
  GroundingMetadata,
  GroundingSupport,
  LlmResponse,
  UsageMetadata,
} from './llm-response';
export type {
  AudioTranscriptionConfig,
  ContextWindowCompressionConfig,
  LiveConnectConfig,
  LiveConnection,
  LiveConnectOptions,
  LiveGoAway,
  LiveRealtimeInput,
  LiveSessionResumptionUpdate,
  ProactivityConfig,
  RealtimeInputConfig,
  SessionResumptionConfig,
  SpeechConfig,
  Transcription,
} from './live-connection';
export {
  createContextCacheConfig,
  DEFAULT_CONTEXT_CACHE_CONFIG,
  type CacheMetadata,
  type ContextCacheConfig,
} from './context-cache';
export type { GenerateOptions, Model, ModelCapabilities, ModelProvider } from './model';
export { defaultModelRegistry, ModelRegistry } from './model-registry';
export { StreamAggregator } from './stream-aggregator';
export * from './embedding';
