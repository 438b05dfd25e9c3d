export { BaseAgent, type BaseAgentOptions } from './base-agent';
export {
  InvocationContext,
  type AgentNode,
  type InvocationContextInit,
} from './invocation-context';
export {
  DEFAULT_MAX_ERROR_RETRIES,
  LlmAgent,
  type InstructionProvider,
  type LlmAgentOptions,
} from './llm-agent';
export { LoopAgent, type LoopAgentOptions } from './loop-agent';
export { ParallelAgent, parallelBranch, type ParallelAgentOptions } from './parallel-agent';
export { SequentialAgent, type SequentialAgentOptions } from './sequential-agent';
export { newSpanId } from './span-id';
export { RESUMES_SUB_AGENTS, resumesSubAgents } from './workflow-resume';
