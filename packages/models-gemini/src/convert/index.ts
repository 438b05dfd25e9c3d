export { fromGeminiResponse } from './from-gemini-response';
export type {
  GeminiFunctionCall,
  GeminiPartialArg,
  GeminiRequest,
  GeminiResponse,
} from './gemini-wire';
export { parseGeminiError } from './parse-gemini-error';
export {
  CONTINUE_TEXT,
  EMPTY_CONTENTS_TEXT,
  LEADING_USER_TEXT,
  toGeminiRequest,
} from './to-gemini-request';
