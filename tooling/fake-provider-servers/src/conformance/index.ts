export {
  describeAnthropicRequest,
  describeGeminiRequest,
  describeOpenAIRequest,
} from './describe-requests';
export { toFakeReply } from './to-fake-reply';
