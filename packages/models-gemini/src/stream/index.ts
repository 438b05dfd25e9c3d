export {
  FunctionCallAssembler,
  isStreamedCallPiece,
  type StreamedArgumentDelta,
  type StreamingFunctionCall,
} from './function-call-assembler';
export { formatJsonPath, parseJsonPath, type JsonPathSegment } from './json-path';
export { readGeminiStream } from './read-gemini-stream';
