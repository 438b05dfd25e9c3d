export type { AnthropicRequest, AnthropicResponse } from './anthropic-wire';
export {
  applyFinish,
  fromAnthropicResponse,
  toFinishReason,
  toUsage,
} from './from-anthropic-response';
export { EMPTY_MESSAGES_TEXT, LEADING_USER_TEXT, toAnthropicRequest } from './to-anthropic-request';
