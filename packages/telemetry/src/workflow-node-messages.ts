import diagnosticsChannel from 'node:diagnostics_channel';

/**
 * The node lifecycle messages of `@adk/workflow` (`adk:workflow:nodeStart`, `adk:workflow:nodeEnd`),
 * as far as telemetry reads them: consumed structurally by channel name, so `@adk/telemetry` does
 * not depend on `@adk/workflow`. A message missing a field is ignored.
 */
export const WORKFLOW_NODE_CHANNELS = {
  start: 'adk:workflow:nodeStart',
  end: 'adk:workflow:nodeEnd',
} as const;

/** `adk:workflow:nodeStart`. */
export interface ObservedWorkflowNodeStart {
  spanId: string;
  parentSpanId: string;
  invocationId: string;
  sessionId: string;
  startTime: number;
  workflowName: string;
  nodeName: string;
  path: string;
}

/** `adk:workflow:nodeEnd`. */
export interface ObservedWorkflowNodeEnd {
  spanId: string;
  durationMs: number;
  outcome: 'output' | 'interrupted' | 'failed';
  route: readonly string[];
  retryCount: number;
  error?: unknown;
}

/** Whether `message` is a node start telemetry can use. */
export function isWorkflowNodeStart(message: unknown): message is ObservedWorkflowNodeStart {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  return (
    typeof m.spanId === 'string' &&
    typeof m.parentSpanId === 'string' &&
    typeof m.nodeName === 'string' &&
    typeof m.workflowName === 'string' &&
    typeof m.startTime === 'number'
  );
}

/** Whether `message` is a node end telemetry can use. */
export function isWorkflowNodeEnd(message: unknown): message is ObservedWorkflowNodeEnd {
  if (typeof message !== 'object' || message === null) return false;
  const m = message as Record<string, unknown>;
  return (
    typeof m.spanId === 'string' &&
    typeof m.durationMs === 'number' &&
    Array.isArray(m.route) &&
    typeof m.retryCount === 'number'
  );
}

/** Subscribe to both channels; returns the unsubscribers. */
export function subscribeWorkflowNodes(handlers: {
  start: (message: unknown) => void;
  end: (message: unknown) => void;
}): Array<() => void> {
  diagnosticsChannel.subscribe(WORKFLOW_NODE_CHANNELS.start, handlers.start);
  diagnosticsChannel.subscribe(WORKFLOW_NODE_CHANNELS.end, handlers.end);
  return [
    () => diagnosticsChannel.unsubscribe(WORKFLOW_NODE_CHANNELS.start, handlers.start),
    () => diagnosticsChannel.unsubscribe(WORKFLOW_NODE_CHANNELS.end, handlers.end),
  ];
}
