/**
 * The workflow's run records: the step log format and its reader live in `@adk/core` (the
 * Runner's resume reads them too, see `readInvocationProgress`); re-exported here under the names
 * this package always had.
 */
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
