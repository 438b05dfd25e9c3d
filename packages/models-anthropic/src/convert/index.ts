export type { AnthropicRequest, AnthropicResponse } from './anthropic-wire';
export {
  applyFinish,
  fromAnthropicResponse,
  REDACTED_THINKING_PREFIX,
  REDACTED_THINKING_TEXT,
  toFinishReason,
  toUsage,
} from './from-anthropic-response';
export {
  EMPTY_MESSAGES_TEXT,
  JSON_RESPONSE_TOOL,
  LEADING_USER_TEXT,
  toAnthropicRequest,
  TRAILING_USER_TEXT,
  usesJsonResponseTool,
} from './to-anthropic-request';
