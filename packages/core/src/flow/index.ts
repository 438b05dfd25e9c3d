export { callModel, streamModel, type CallModelOptions, type ModelSpan } from './call-model';
export type { FlowAgent, InstructionProvider } from './flow-agent';
export { executeFunctionCalls, type ExecuteFunctionCallsOptions } from './execute-tools';
export { errorEvent, modelResponseEvent } from './flow-events';
export { runLlmFlow } from './llm-flow';
export { applyOutput } from './output';
export {
  appendDynamicInstruction,
  appendInstruction,
  buildRequest,
  configProcessor,
  contentsProcessor,
  defaultRequestProcessors,
  identityProcessor,
  instructionsProcessor,
  outputSchemaProcessor,
  prependInstruction,
  toolsProcessor,
  type RequestProcessor,
  type RequestProcessorInput,
} from './request-processors';
export { resolveTools, type ResolvedTools, type ToolsetFailure } from './resolve-tools';
export { registerStepPostprocessor } from './postprocessors';
export type { StepPostprocessor, StepPostprocessorInput } from './step-postprocessors';
export {
  offeredSetModelResponseTool,
  SET_MODEL_RESPONSE,
  SET_MODEL_RESPONSE_INSTRUCTION,
  SetModelResponseTool,
  setModelResponseToolFor,
  withSetModelResponseTool,
} from './set-model-response-tool';
export { runTransferTarget, transferProcessor, withTransferTool } from './transfer-to-agent-flow';
export { TransferToAgentTool, transferTargets, transferToolFor } from './transfer-to-agent-tool';
export { compileAgentInstruction } from './compile-agent-instruction';
export { requestCredentials } from './credential-flow';
export {
  createCredentialRequestEvent,
  credentialRequestCallId,
  credentialResponse,
  findAnsweredCredentialRequests,
  parseCredentialResponse,
  REQUEST_CREDENTIAL_FUNCTION_NAME,
  type AnsweredCredentialRequest,
  type CredentialRequestArgs,
} from './credential-request';
