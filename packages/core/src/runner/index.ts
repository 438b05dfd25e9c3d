export { findAgentToRun, findResumeEntry, isRoutableAgent } from './find-agent-to-run';
export {
  createRunConfig,
  DEFAULT_MAX_LLM_CALLS,
  type RunConfig,
  type StreamingMode,
} from './run-config';
export { Runner, type RunnerOptions, type RunnerServices, type RunRequest } from './runner';
export {
  readInvocationProgress,
  type InvocationCall,
  type InvocationProgress,
} from './invocation-progress';
export type { ResumeRequest } from './resume-invocation';
export { UNREAD_ERROR_EVENT_WARNING } from './unread-error-events';
