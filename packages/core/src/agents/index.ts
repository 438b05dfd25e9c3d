export { BaseAgent, type BaseAgentOptions } from './base-agent';
export {
  DEFAULT_MAX_ERROR_RETRIES,
  LlmAgent,
  type InstructionProvider,
  type LlmAgentOptions,
} from './llm-agent';
export { LoopAgent, type LoopAgentOptions } from './loop-agent';
export { ParallelAgent, parallelBranch, type ParallelAgentOptions } from './parallel-agent';
export { SequentialAgent, type SequentialAgentOptions } from './sequential-agent';
export {
  DELEGATION_TOOL,
  delegationToolOf,
  RESUMES_SUB_AGENTS,
  resumesSubAgents,
} from './workflow-resume';
export { AgentTool, type AgentToolOptions } from './agent-tool';
export { ParentScopedArtifactService } from './agent-tool-artifacts';
