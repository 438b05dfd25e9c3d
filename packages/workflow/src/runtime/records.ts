import type { Event } from '@adk/core';

/** Key of the workflow record in an event's `customMetadata`. */
export const WORKFLOW_METADATA_KEY = 'adk_workflow';

/** A node's failure as stored (and as an `error` route's input). */
export interface StoredNodeError {
  name: string;
  code: string;
  message: string;
  /** Code of the underlying error, when it had one. */
  causeCode?: string;
  attempts: number;
}

interface RecordBase {
  /** Name of the workflow that wrote the record. */
  workflow: string;
  /** Id of the run: the invocation id that started it. */
  run: string;
}

/** A run started, with its input. */
export interface RunStartRecord extends RecordBase {
  kind: 'start';
  input: unknown;
}

/** An execution of a node finished: its output and route (`error` set when it failed). */
export interface NodeOutputRecord extends RecordBase {
  kind: 'output';
  /** `node@n` for the n-th execution of a graph node, `parent@n/child@m` for a dynamic node. */
  path: string;
  node: string;
  output: unknown;
  route?: string;
  attempts: number;
  error?: StoredNodeError;
}

/** An execution of a node paused on requests (human input, a long-running call). */
export interface NodeInterruptRecord extends RecordBase {
  kind: 'interrupt';
  path: string;
  node: string;
  /** Function call ids whose answers resume the node. */
  requestIds: string[];
  /** True when the node asked itself (`ctx.requestInput`); false when an agent or dynamic node it ran did. */
  own: boolean;
  /** The node waits for the user's next plain message (a task agent's conversation). */
  awaitsMessage?: boolean;
}

/** The run ended (`completed` with the workflow's output, or `failed`). */
export interface RunEndRecord extends RecordBase {
  kind: 'end';
  status: 'completed' | 'failed';
  output?: unknown;
}

/** What a workflow writes in its events' `customMetadata.adk_workflow`. */
export type WorkflowRecord = RunStartRecord | NodeOutputRecord | NodeInterruptRecord | RunEndRecord;

/** The workflow record an event carries, if any. */
export function workflowRecordOf(event: Event): WorkflowRecord | undefined {
  const record = event.customMetadata?.[WORKFLOW_METADATA_KEY];
  if (record === null || typeof record !== 'object') return undefined;
  const kind = (record as { kind?: unknown }).kind;
  return kind === 'start' || kind === 'output' || kind === 'interrupt' || kind === 'end'
    ? (record as WorkflowRecord)
    : undefined;
}
