/**
 * Anthropic (Claude) Messages API model provider for ADK for TypeScript.
 */
export {
  ANTHROPIC_DEFAULT_BASE_URL,
  ANTHROPIC_MODEL_PATTERNS,
  createAnthropic,
  type AnthropicProvider,
  type AnthropicSettings,
} from './anthropic-provider';
export {
  ANTHROPIC_API_KEY_ENV_VARS,
  ANTHROPIC_API_VERSION,
  AnthropicModel,
  defaultMaxTokens,
} from './anthropic-model';
export { readAnthropicStream } from './anthropic-stream';
export {
  applyFinish,
  EMPTY_MESSAGES_TEXT,
  fromAnthropicResponse,
  LEADING_USER_TEXT,
  toAnthropicRequest,
  toFinishReason,
  toUsage,
  TRAILING_USER_TEXT,
  type AnthropicRequest,
  type AnthropicResponse,
} from './convert';
export { registerAnthropic } from './register-anthropic';
export {
  CircuitBreaker,
  CircuitOpenError,
  MissingApiKeyError,
  ModelApiError,
  ModelConnectionError,
  ModelStreamError,
  ModelTimeoutError,
} from '@adk/model-http';
