export { findAgentToRun, findResumeEntry, isRoutableAgent } from './find-agent-to-run';
export {
  createRunConfig,
  DEFAULT_MAX_LLM_CALLS,
  type RunConfig,
  type StreamingMode,
} from './run-config';
export { Runner, type RunnerOptions, type RunRequest } from './runner';
export { UNREAD_ERROR_EVENT_WARNING } from './unread-error-events';
