import diagnosticsChannel from 'node:diagnostics_channel';

/** Published when a node execution starts (replayed executions publish nothing). */
export interface WorkflowNodeStartMessage {
  spanId: string;
  /** The span of the workflow agent running the node. */
  parentSpanId: string;
  invocationId: string;
  appName: string;
  userId: string;
  sessionId: string;
  /** `performance.now()` at the start. */
  startTime: number;
  workflowName: string;
  nodeName: string;
  /** `node@n`, or `parent@n/child@m` for a dynamic node. */
  path: string;
}

/** Published when a node execution ends, whatever the outcome. */
export interface WorkflowNodeEndMessage {
  spanId: string;
  invocationId: string;
  durationMs: number;
  outcome: 'output' | 'interrupted' | 'failed';
  /** The route(s) the node chose (`__ERROR__` when it failed). */
  route: readonly string[];
  /** Attempts made minus one. */
  retryCount: number;
  /** The last attempt's error when the node failed. */
  error?: unknown;
}

/**
 * Channel names of the workflow lifecycle, on `node:diagnostics_channel`: `adk:workflow:nodeStart`
 * and `adk:workflow:nodeEnd`. `@adk/telemetry` turns them into `workflow_node <name>` spans under
 * the workflow's agent span. A message is built only when its channel has a subscriber.
 */
export const WORKFLOW_CHANNELS = {
  nodeStart: 'adk:workflow:nodeStart',
  nodeEnd: 'adk:workflow:nodeEnd',
} as const;

const nodeStart = diagnosticsChannel.channel(WORKFLOW_CHANNELS.nodeStart);
const nodeEnd = diagnosticsChannel.channel(WORKFLOW_CHANNELS.nodeEnd);

/** @internal True when someone listens to node starts or ends (then spans are worth computing). */
export function nodesObserved(): boolean {
  return nodeStart.hasSubscribers || nodeEnd.hasSubscribers;
}

/** @internal Publish a node start when someone listens. */
export function publishNodeStart(build: () => WorkflowNodeStartMessage): void {
  if (nodeStart.hasSubscribers) nodeStart.publish(build());
}

/** @internal Publish a node end when someone listens. */
export function publishNodeEnd(build: () => WorkflowNodeEndMessage): void {
  if (nodeEnd.hasSubscribers) nodeEnd.publish(build());
}
