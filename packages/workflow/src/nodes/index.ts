export {
  AgentNode,
  type AgentNodeOptions,
  type NestableAgent,
  type NestedRunResult,
} from './agent-node';
export { inputContent, inputText, type AgentNodeContents } from './agent-input-view';
export { BaseNode, type BaseNodeOptions } from './base-node';
export {
  FunctionNode,
  functionNode,
  type FunctionNodeOptions,
  type NodeFunction,
} from './function-node';
export { JoinNode } from './join-node';
export type { InputRequest, NodeContext, RunNodeOptions } from './node-context';
export { ParallelWorker, type ParallelWorkerOptions } from './parallel-worker';
export {
  DEFAULT_MAX_ATTEMPTS,
  maxAttemptsOf,
  retriesError,
  retryDelay,
  type RetryOptions,
} from './retry';
export { isNodeLike, isTool, toNode, type NodeLike } from './to-node';
export { ToolNode } from './tool-node';
export { ToolsetNode, type ToolsetNodeOptions } from './toolset-node';
export { FirstMatchNode, type FirstMatchNodeOptions } from './first-match-node';
export { node, type NodeOptions } from './node-helper';
