export { describeWorkflowGraph, type WorkflowGraphDescription } from './describe-graph';
export { REQUEST_INPUT_FUNCTION_NAME } from './record-events';
export {
  WORKFLOW_METADATA_KEY,
  workflowRecordOf,
  type NodeInterruptRecord,
  type NodeOutputRecord,
  type RunEndRecord,
  type RunStartRecord,
  type StoredNodeError,
  type WorkflowRecord,
} from './records';
export { readStoredWorkflowRun, type StoredWorkflowRun } from './stored-node-outputs';
export { Workflow, type WorkflowOptions } from './workflow';
