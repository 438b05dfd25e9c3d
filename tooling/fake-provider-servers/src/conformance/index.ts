export {
  describeAnthropicRequest,
  describeGeminiRequest,
  describeOpenAIRequest,
} from './describe-requests';
export { toFakeReply } from './to-fake-reply';
export {
  describeAnthropicTurns,
  describeGeminiTurns,
  describeOpenAITurns,
  turnProblems,
  type WireTurn,
} from './describe-turns';
