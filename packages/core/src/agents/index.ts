export { BaseAgent, type BaseAgentOptions } from './base-agent';
export { InvocationContext, type InvocationContextInit } from './invocation-context';
export {
  DEFAULT_MAX_ERROR_RETRIES,
  LlmAgent,
  type InstructionProvider,
  type LlmAgentOptions,
} from './llm-agent';
export { newSpanId } from './span-id';
