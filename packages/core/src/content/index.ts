export type {
  Blob,
  CodeExecutionResult,
  Content,
  ExecutableCode,
  FileData,
  FunctionCall,
  FunctionResponse,
  Part,
  Role,
} from './types';
export {
  getFunctionCalls,
  getFunctionResponses,
  getText,
  modelContent,
  textPart,
  userContent,
} from './helpers';
