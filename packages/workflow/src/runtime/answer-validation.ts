import {
  createEvent,
  type Event,
  type InvocationContext,
  type NodeInterruptRecord,
  type StoredWorkflowRun,
} from '@adk/core';
import { z } from 'zod';

import { recordEvent, REQUEST_INPUT_FUNCTION_NAME } from './record-events';

/** `errorCode` of the event refusing an answer that does not match its request's schema. */
export const INPUT_REJECTED_ERROR_CODE = 'WORKFLOW_INPUT_REJECTED';

/** @internal An answer refused: its pause stays open and its request is asked again. */
export interface RefusedAnswer {
  record: NodeInterruptRecord;
  requestId: string;
  /** The arguments of the request's `adk_request_input` call, to ask it again. */
  args: Record<string, unknown>;
  message: string;
}

/**
 * @internal Check the answers to the stored run's input requests against the JSON Schema each
 * request carried (`response_schema`); an answer that does not match is removed from `replies`
 * (its node stays paused) and returned, to be reported and asked again.
 */
export function refuseInvalidAnswers(
  stored: StoredWorkflowRun,
  events: readonly Event[],
  replies: Map<string, unknown>,
): RefusedAnswer[] {
  const refused: RefusedAnswer[] = [];
  if (replies.size === 0) return refused;
  for (const [path, record] of stored.interrupts) {
    if (!record.own || !record.requestIds.some((id) => replies.has(id))) continue;
    const event = events[stored.interruptIndex.get(path) ?? -1];
    for (const part of event?.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.name !== REQUEST_INPUT_FUNCTION_NAME || !call.id || !replies.has(call.id)) continue;
      const args = (call.args ?? {}) as Record<string, unknown>;
      const schema = args.response_schema ?? args.responseSchema;
      if (schema === null || typeof schema !== 'object') continue;
      const parsed = z
        .fromJSONSchema(schema as z.core.JSONSchema.JSONSchema)
        .safeParse(replies.get(call.id));
      if (parsed.success) continue;
      replies.delete(call.id);
      refused.push({
        record,
        requestId: call.id,
        args,
        message: `The answer to "${call.id}" does not match its response schema: ${z.prettifyError(parsed.error)}`,
      });
    }
  }
  return refused;
}

/**
 * @internal The events of a refused answer: an error event (`WORKFLOW_INPUT_REJECTED`), then the
 * request asked again (same id); the node's pause stays open.
 */
export function* refusalEvents(
  ctx: InvocationContext,
  workflowName: string,
  refusal: RefusedAnswer,
): Generator<Event> {
  yield createEvent({
    invocationId: ctx.invocationId,
    author: workflowName,
    branch: ctx.branch,
    errorCode: INPUT_REJECTED_ERROR_CODE,
    errorMessage: refusal.message,
  });
  yield recordEvent(ctx, workflowName, refusal.record, {
    askedAgain: [{ id: refusal.requestId, args: refusal.args }],
    longRunningToolIds: [refusal.requestId],
  });
}
