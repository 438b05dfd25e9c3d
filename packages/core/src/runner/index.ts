export { findAgentToRun, findResumeEntry, isRoutableAgent } from './find-agent-to-run';
export {
  createRunConfig,
  DEFAULT_MAX_LLM_CALLS,
  LIVE_RUN_CONFIG_KEYS,
  type RunConfig,
  type StreamingMode,
} from '../context/run-config';
export type { SessionLock, SessionLockKey, SessionLockRelease } from './session-lock';
export { Runner, type RunnerOptions, type RunnerServices } from './runner';
export type { RunRequest } from './run-request';
export {
  readInvocationProgress,
  type InvocationCall,
  type InvocationProgress,
  type OpenRun,
} from './invocation-progress';
export { findMessageAwaitingAgent } from './awaiting-message';
export {
  isPauseEvent,
  readStoredWorkflowRun,
  WORKFLOW_METADATA_KEY,
  workflowRecordOf,
  type NodeInterruptRecord,
  type NodeOutputRecord,
  type RunEndRecord,
  type RunStartRecord,
  type StoredNodeError,
  type StoredWorkflowRun,
  type WorkflowRecord,
} from './run-records';
export type { ResumeHost, ResumeRequest } from './resume-invocation';
export {
  restoreArtifacts,
  REWIND_ARTIFACT_METADATA_KEY,
  rewindSession,
  rewindStateDelta,
  type RewindRequest,
  type RewindSessionRequest,
} from './rewind-session';
export { UNREAD_ERROR_EVENT_WARNING } from './unread-error-events';
