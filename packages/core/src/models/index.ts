export type {
  FunctionDeclaration,
  GenerateContentConfig,
  JsonSchema,
  LlmRequest,
  ToolChoice,
  ToolDeclarations,
} from './llm-request';
export type { FinishReason, LlmResponse, UsageMetadata } from './llm-response';
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
