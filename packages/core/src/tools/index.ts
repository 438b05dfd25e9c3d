export { FunctionTool, type FunctionToolOptions } from './function-tool';
export { validateJsonSchema } from './json-schema-validator';
export { isToolset } from './is-toolset';
export type { Tool, Toolset } from './tool';
export { normalizeToolResult, toolErrorResponse, type ToolErrorResponse } from './tool-response';
