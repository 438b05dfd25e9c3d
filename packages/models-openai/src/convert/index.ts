export {
  applyFinish,
  fromOpenAIResponse,
  markMalformedCall,
  parseToolCall,
  toFinishReason,
  toUsage,
} from './from-openai-response';
export type { OpenAIChunk, OpenAIRequest, OpenAIResponse } from './openai-wire';
export { toOpenAIRequest, type OpenAIRequestOptions } from './to-openai-request';
