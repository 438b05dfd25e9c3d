export { NodeDataError } from './node-data-error';
export { NodeInterruptedError } from './node-interrupted-error';
export { NodeFailedError } from './node-failed-error';
export { NodeTimeoutError } from './node-timeout-error';
export { WorkflowGraphError, type WorkflowGraphProblem } from './workflow-graph-error';
