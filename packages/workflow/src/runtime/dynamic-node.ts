import type { Event, StoredWorkflowRun } from '@adk/core';

import { NodeFailedError } from '../errors/node-failed-error';
import { NodeInterruptedError } from '../errors/node-interrupted-error';
import { toNode } from '../nodes/to-node';
import { executeNode, type ExecutionSettings } from './execute-node';
import type { NodeContextImpl } from './node-context-impl';
import type { Execution, Outcome } from './outcome';
import { storedOutcome } from './stored-outcome';

/** @internal What a dynamic node needs from its run. */
export interface DynamicNodeHost {
  readonly stored: StoredWorkflowRun | undefined;
  readonly replies: ReadonlyMap<string, unknown>;
  readonly messageIndex: number;
  settings(resumed: boolean): ExecutionSettings;
  emit(event: Event): Promise<void>;
  outcomeEvent(exec: Execution, outcome: Outcome): Event;
}

/**
 * @internal Run `value` as a dynamic node of `parent` (Python's `ctx.run_node`): its outcome is
 * stored like a graph node's and read back on resume; a pause or a failure is thrown to the parent
 * (`NodeInterruptedError`, `NodeFailedError`).
 */
export async function runDynamicNode(
  host: DynamicNodeHost,
  parent: NodeContextImpl,
  value: unknown,
  input: unknown,
  key: string | undefined,
  cancel: AbortSignal | undefined,
): Promise<unknown> {
  const node = toNode(value);
  if (!node) {
    throw new NodeFailedError({
      nodeName: parent.nodeName,
      attempts: parent.attempt,
      message: `Node "${parent.nodeName}" asked to run something that is not a node, agent, tool or function.`,
    });
  }
  const exec: Execution = { node, path: parent.childPath(node.name, key), input, fromUser: false };
  const known = storedOutcome(exec, host.stored, host.replies, host.messageIndex);
  // A dynamic node runs under its parent's signal (and the one it was given): the parent's
  // timeout, the run's failure or a sibling item's failure cancels it.
  const signal = cancel ? AbortSignal.any([parent.signal, cancel]) : parent.signal;
  const outcome =
    known.kind === 'outcome'
      ? known.outcome
      : await executeNode(exec, { ...host.settings(known.resumed), signal });
  if (!outcome.stored && signal.aborted) {
    // Cancelled: what it returned (or how it failed) is not its result, and is not stored.
    throw new NodeFailedError({
      nodeName: node.name,
      attempts: outcome.attempts,
      causeCode: 'WORKFLOW_NODE_CANCELLED',
      message: `Node "${node.name}" was cancelled.`,
      cause: signal.reason,
    });
  }
  if (!outcome.stored) await host.emit(host.outcomeEvent(exec, outcome));
  if (outcome.kind === 'interrupt') {
    throw new NodeInterruptedError({ nodeName: node.name, requestIds: outcome.requestIds });
  }
  if (outcome.error) {
    throw new NodeFailedError({
      nodeName: node.name,
      attempts: outcome.attempts,
      causeCode: outcome.error.causeCode ?? outcome.error.code,
      message: outcome.error.message,
      failure: outcome.error,
    });
  }
  return outcome.output;
}
