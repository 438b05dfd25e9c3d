export type {
  FunctionDeclaration,
  GenerateContentConfig,
  JsonSchema,
  LlmRequest,
  ToolChoice,
  ToolDeclarations,
} from './llm-request';
export type { FinishReason, LlmResponse, UsageMetadata } from './llm-response';
export type { GenerateOptions, Model, ModelCapabilities, ModelProvider } from './model';
export { defaultModelRegistry, ModelRegistry } from './model-registry';
export { StreamAggregator } from './stream-aggregator';
export * from './embedding';
