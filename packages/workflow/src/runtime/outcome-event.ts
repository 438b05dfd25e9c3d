import type { Event, InvocationContext, NodeInterruptRecord, NodeOutputRecord } from '@adk/core';

import type { Execution, Outcome } from './outcome';
import { recordEvent } from './record-events';

/** Prefix of the `longRunningToolIds` entry of a pause that waits for the user's next message. */
export const AWAITS_MESSAGE_ID_PREFIX = 'awaits-message:';

/** @internal The run an outcome event belongs to. */
export interface RunIdentity {
  ctx: InvocationContext;
  workflowName: string;
  runId: string;
}

/**
 * @internal The event recording `outcome`. A failure is a record, not an error event: the run's
 * end reports it if nothing handles it (`handled`: an error route takes it).
 */
export function outcomeEvent(
  run: RunIdentity,
  exec: Execution,
  outcome: Outcome,
  handled: boolean,
): Event {
  const { ctx, workflowName: workflow, runId } = run;
  if (outcome.kind === 'interrupt') {
    const record: NodeInterruptRecord = {
      kind: 'interrupt',
      workflow,
      run: runId,
      path: exec.path,
      node: exec.node.name,
      requestIds: outcome.requestIds,
      own: outcome.own,
    };
    if (outcome.awaitsMessage) record.awaitsMessage = true;
    if (outcome.routes.length > 0) record.route = outcome.routes.join(',');
    // Each call is listed once, as in Python: by the event that made it. This record lists the
    // node's own requests (its `adk_request_input` calls are in it), not the calls of an agent
    // or a nested workflow it waits on (listed by their own events; core's `isPauseEvent` reads
    // the record as a pause). A wait for the user's next message is listed as
    // `awaits-message:<path>` (no call): the Runner gives that message to this workflow (core's
    // `findMessageAwaitingAgent`).
    const listed = outcome.requests.map((request) => request.id);
    if (outcome.awaitsMessage) listed.push(`${AWAITS_MESSAGE_ID_PREFIX}${exec.path}`);
    return recordEvent(ctx, workflow, record, {
      actions: outcome.actions,
      requests: outcome.requests,
      longRunningToolIds: listed.length > 0 ? listed : undefined,
    });
  }
  const record: NodeOutputRecord = {
    kind: 'output',
    workflow,
    run: runId,
    path: exec.path,
    node: exec.node.name,
    output: outcome.output,
    attempts: outcome.attempts,
  };
  if (outcome.routes.length > 0) record.route = outcome.routes.join(',');
  if (outcome.error) {
    record.error = outcome.error;
    if (handled) record.handled = true;
  }
  return recordEvent(ctx, workflow, record, outcome.actions);
}
