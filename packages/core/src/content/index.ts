export type { Blob, Content, FileData, FunctionCall, FunctionResponse, Part, Role } from './types';
export {
  getFunctionCalls,
  getFunctionResponses,
  getText,
  modelContent,
  textPart,
  userContent,
} from './helpers';
