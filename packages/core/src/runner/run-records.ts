import type { Event } from '../events';
import { WORKFLOW_METADATA_KEY } from '../events/is-pause-event';

export { isPauseEvent, WORKFLOW_METADATA_KEY } from '../events/is-pause-event';

/** A step's failure as stored (and as an `error` route's input). */
export interface StoredNodeError {
  name: string;
  code: string;
  message: string;
  /** Code of the underlying error, when it had one. */
  causeCode?: string;
  attempts: number;
}

interface RecordBase {
  /** Name of the agent (the workflow) that wrote the record. */
  workflow: string;
  /** Id of the run: the invocation id that started it. */
  run: string;
}

/** A run started, with its input. */
export interface RunStartRecord extends RecordBase {
  kind: 'start';
  input: unknown;
}

/** An execution of a step (node) finished: its output and route (`error` set when it failed). */
export interface NodeOutputRecord extends RecordBase {
  kind: 'output';
  /** `node@n` for the n-th execution of a graph node, `parent@n/child@m` for a dynamic node. */
  path: string;
  node: string;
  output: unknown;
  route?: string;
  attempts: number;
  error?: StoredNodeError;
  /** The failure (`error`) was taken by an error route: the run goes on, it has not failed. */
  handled?: boolean;
}

/** An execution of a step paused on requests (human input, a long-running call, a message). */
export interface NodeInterruptRecord extends RecordBase {
  kind: 'interrupt';
  path: string;
  node: string;
  /** Function call ids whose answers resume the step. */
  requestIds: string[];
  /** True when the step asked itself (`ctx.requestInput`); false when an agent or dynamic node it ran did. */
  own: boolean;
  /** The step waits for the user's next plain message (a task agent's conversation). */
  awaitsMessage?: boolean;
  /**
   * The route(s) the step set before it paused (comma-separated), taken when the answer becomes
   * its output.
   */
  route?: string;
}

/** The run ended (`completed` with its output, or `failed`). */
export interface RunEndRecord extends RecordBase {
  kind: 'end';
  status: 'completed' | 'failed';
  output?: unknown;
}

/** What an agent running in steps writes in its events' `customMetadata.adk_workflow`. */
export type WorkflowRecord = RunStartRecord | NodeOutputRecord | NodeInterruptRecord | RunEndRecord;

/** The run record an event carries, if any. */
export function workflowRecordOf(event: Event): WorkflowRecord | undefined {
  const record = event.customMetadata?.[WORKFLOW_METADATA_KEY];
  if (record === null || typeof record !== 'object') return undefined;
  const kind = (record as { kind?: unknown }).kind;
  return kind === 'start' || kind === 'output' || kind === 'interrupt' || kind === 'end'
    ? (record as WorkflowRecord)
    : undefined;
}

/**
 * The unfinished run of a step-recorded agent, read back from the session's events: its input,
 * the outputs its steps stored (in the order they were stored) and the steps still paused.
 */
export interface StoredWorkflowRun {
  runId: string;
  input: unknown;
  /** Outputs by execution path (`node@n`, `parent@n/child@m`), in the order they were stored. */
  outputs: Map<string, NodeOutputRecord>;
  /** Paused executions by path, unless an output for the same path was stored after. */
  interrupts: Map<string, NodeInterruptRecord>;
  /** Index in the events of each paused execution's record (by path). */
  interruptIndex: Map<string, number>;
  /** The invocation that stored the run's newest record: the one that worked on it last. */
  lastInvocationId: string;
}

/**
 * Read the unfinished run of the agent named `workflowName` on `branch` from `events`: what lets
 * a workflow, and `runner.resume` (through {@link readInvocationProgress}), continue after a crash
 * or a pause without running finished steps again. `undefined` when its latest run ended (or it
 * never ran).
 *
 * Scans back from the newest event to the run's start record, so the cost is bounded by the
 * events stored since this agent last started a run, not by the session's length.
 *
 * @example
 * ```ts
 * const run = readStoredWorkflowRun(session.events, 'pipeline', undefined);
 * run?.outputs.get('summarize@0')?.output;
 * ```
 */
export function readStoredWorkflowRun(
  events: readonly Event[],
  workflowName: string,
  branch: string | undefined,
): StoredWorkflowRun | undefined {
  let startIndex = -1;
  let start: RunStartRecord | undefined;
  let lastInvocationId: string | undefined;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author !== workflowName || event.branch !== branch) continue;
    const record = workflowRecordOf(event);
    if (!record || record.workflow !== workflowName) continue;
    if (record.kind === 'end') return undefined;
    lastInvocationId ??= event.invocationId;
    if (record.kind === 'start') {
      start = record;
      startIndex = index;
      break;
    }
  }
  if (!start) return undefined;
  const outputs = new Map<string, NodeOutputRecord>();
  const interrupts = new Map<string, NodeInterruptRecord>();
  const interruptIndex = new Map<string, number>();
  for (let index = startIndex + 1; index < events.length; index++) {
    const event = events[index] as Event;
    if (event.author !== workflowName || event.branch !== branch) continue;
    const record = workflowRecordOf(event);
    if (!record || record.run !== start.run) continue;
    if (record.kind === 'output') {
      outputs.set(record.path, record);
      interrupts.delete(record.path);
      interruptIndex.delete(record.path);
    } else if (record.kind === 'interrupt') {
      interrupts.set(record.path, record);
      interruptIndex.set(record.path, index);
    }
  }
  return {
    runId: start.run,
    input: start.input,
    outputs,
    interrupts,
    interruptIndex,
    lastInvocationId: lastInvocationId as string,
  };
}
