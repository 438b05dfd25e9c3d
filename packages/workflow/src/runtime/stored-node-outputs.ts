import type { Event } from '@adk/core';

import {
  workflowRecordOf,
  type NodeInterruptRecord,
  type NodeOutputRecord,
  type RunStartRecord,
} from './records';

/**
 * The unfinished run of a workflow, read back from the session's events: its input, the outputs
 * its node executions stored (in the order they were stored) and the executions still waiting
 * for an answer.
 */
export interface StoredWorkflowRun {
  runId: string;
  input: unknown;
  /** Outputs by execution path (`node@n`, `parent@n/child@m`), in the order they were stored. */
  outputs: Map<string, NodeOutputRecord>;
  /** Paused executions by path, unless an output for the same path was stored after. */
  interrupts: Map<string, NodeInterruptRecord>;
}

/**
 * Read the unfinished run of the workflow named `workflowName` on `branch` from `events`: the
 * reader that lets a workflow continue after a crash or a pause without running finished nodes
 * again. `undefined` when its latest run ended (or it never ran).
 *
 * Scans back from the newest event to the run's start record, so the cost is bounded by the
 * events stored since this workflow last started, not by the session's length.
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
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author !== workflowName || event.branch !== branch) continue;
    const record = workflowRecordOf(event);
    if (!record || record.workflow !== workflowName) continue;
    if (record.kind === 'end') return undefined;
    if (record.kind === 'start') {
      start = record;
      startIndex = index;
      break;
    }
  }
  if (!start) return undefined;
  const outputs = new Map<string, NodeOutputRecord>();
  const interrupts = new Map<string, NodeInterruptRecord>();
  for (let index = startIndex + 1; index < events.length; index++) {
    const event = events[index] as Event;
    if (event.author !== workflowName || event.branch !== branch) continue;
    const record = workflowRecordOf(event);
    if (!record || record.run !== start.run) continue;
    if (record.kind === 'output') {
      outputs.set(record.path, record);
      interrupts.delete(record.path);
    } else if (record.kind === 'interrupt') {
      interrupts.set(record.path, record);
    }
  }
  return { runId: start.run, input: start.input, outputs, interrupts };
}
