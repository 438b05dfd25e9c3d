export { ExitLoopTool, exitLoopTool } from './exit-loop-tool';
export { FunctionTool, type FunctionToolOptions } from './function-tool';
export { validateJsonSchema } from './json-schema-validator';
export { isToolset } from './is-toolset';
export type { Tool, Toolset } from './tool';
export { DEFAULT_TOOL_TIMEOUT_MS } from './tool-timeout';
export {
  normalizeToolResult,
  toStorableToolResponse,
  toolErrorResponse,
  type ToolErrorResponse,
} from './tool-response';
export {
  checkProviderTools,
  codeExecutionTool,
  ProviderTool,
  urlContextTool,
  webSearchTool,
} from './provider-tool';
