export { AgentTool, type AgentToolOptions } from './agent-tool';
export { ParentScopedArtifactService } from './agent-tool-artifacts';
export { ExitLoopTool, exitLoopTool } from './exit-loop-tool';
export { FunctionTool, type FunctionToolOptions } from './function-tool';
export { validateJsonSchema } from './json-schema-validator';
export { isToolset } from './is-toolset';
export {
  offeredSetModelResponseTool,
  SET_MODEL_RESPONSE,
  SET_MODEL_RESPONSE_INSTRUCTION,
  SetModelResponseTool,
  setModelResponseToolFor,
  withSetModelResponseTool,
} from './set-model-response-tool';
export type { Tool, Toolset } from './tool';
export { DEFAULT_TOOL_TIMEOUT_MS } from './tool-timeout';
export {
  normalizeToolResult,
  toStorableToolResponse,
  toolErrorResponse,
  type ToolErrorResponse,
} from './tool-response';
export { runTransferTarget, transferProcessor, withTransferTool } from './transfer-to-agent-flow';
export { TransferToAgentTool, transferTargets, transferToolFor } from './transfer-to-agent-tool';
