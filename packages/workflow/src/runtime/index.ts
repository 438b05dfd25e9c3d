export { describeWorkflowGraph, type WorkflowGraphDescription } from './describe-graph';
export { REQUEST_INPUT_FUNCTION_NAME } from './record-events';
// The run records and their reader live in `@adk/core` (the Runner's resume reads them too);
// re-exported here under the names this package always had.
export {
  WORKFLOW_METADATA_KEY,
  workflowRecordOf,
  type NodeInterruptRecord,
  type NodeOutputRecord,
  type RunEndRecord,
  type RunStartRecord,
  type StoredNodeError,
  type WorkflowRecord,
} from '@adk/core';
export { readStoredWorkflowRun, type StoredWorkflowRun } from '@adk/core';
export { Workflow, type WorkflowOptions } from './workflow';
export {
  ATTEMPT_METADATA_KEY,
  failedAttemptOf,
  type NodeAttemptFailedRecord,
} from './attempt-record';
export { INPUT_REJECTED_ERROR_CODE } from './answer-validation';
