import {
  createEvent,
  createEventActions,
  newEventId,
  WORKFLOW_METADATA_KEY,
  type Event,
  type EventActions,
  type InvocationContext,
  type WorkflowRecord,
} from '@adk/core';
import { z } from 'zod';

import type { InputRequest } from '../nodes/node-context';

/** Name of the function call that asks the user for input (as in the Python ADK). */
export const REQUEST_INPUT_FUNCTION_NAME = 'adk_request_input';

/** @internal Fields a record event may carry besides its record. */
export interface RecordEventExtras {
  actions?: EventActions | undefined;
  errorCode?: string | undefined;
  errorMessage?: string | undefined;
  text?: string | undefined;
  requests?: ReadonlyArray<InputRequest & { id: string }>;
  /** Input requests asked again, with the arguments they were first asked with. */
  askedAgain?: ReadonlyArray<{ id: string; args: Record<string, unknown> }>;
  longRunningToolIds?: string[];
}

/**
 * @internal An event of the workflow carrying `record` in `customMetadata.adk_workflow`; given
 * only actions (a node's plain output, the common case), the event is built directly.
 */
export function recordEvent(
  ctx: InvocationContext,
  workflowName: string,
  record: WorkflowRecord,
  extras: RecordEventExtras | EventActions | undefined = undefined,
): Event {
  if (extras === undefined || isActions(extras)) {
    const event: Event = {
      invocationId: ctx.invocationId,
      author: workflowName,
      customMetadata: { [WORKFLOW_METADATA_KEY]: record },
      id: newEventId(),
      timestamp: Date.now(),
      actions: extras ?? createEventActions(),
    };
    if (ctx.branch !== undefined) event.branch = ctx.branch;
    return event;
  }
  const calls = [
    ...(extras.requests ?? []).map((request) => ({
      id: request.id,
      args: requestInputArgs(request),
    })),
    ...(extras.askedAgain ?? []),
  ];
  const parts =
    extras.text === undefined && calls.length === 0
      ? undefined
      : [
          ...(extras.text === undefined ? [] : [{ text: extras.text }]),
          ...calls.map(({ id, args }) => ({
            functionCall: { id, name: REQUEST_INPUT_FUNCTION_NAME, args },
          })),
        ];
  return createEvent({
    invocationId: ctx.invocationId,
    author: workflowName,
    branch: ctx.branch,
    content: parts ? { role: 'model', parts } : undefined,
    actions: extras.actions,
    customMetadata: { [WORKFLOW_METADATA_KEY]: record },
    errorCode: extras.errorCode,
    errorMessage: extras.errorMessage,
    longRunningToolIds: extras.longRunningToolIds,
  });
}

/**
 * The arguments of an `adk_request_input` call, named as Python ADK writes them (a front end
 * built for Python reads them unchanged): `interruptId`, `message`, `payload` and
 * `response_schema` (JSON Schema), `null` when not given.
 */
export function requestInputArgs(request: InputRequest & { id: string }): Record<string, unknown> {
  return {
    interruptId: request.id,
    message: request.message,
    payload: request.payload ?? null,
    response_schema:
      request.responseSchema === undefined
        ? null
        : z.toJSONSchema(request.responseSchema, { unrepresentable: 'any' }),
  };
}

function isActions(value: RecordEventExtras | EventActions): value is EventActions {
  return 'stateDelta' in value && 'artifactDelta' in value;
}

/**
 * The answers carried by the user's message: function responses by call id, a `{ result }`
 * wrapper unwrapped (clients wrap plain values that way).
 */
export function repliesOf(ctx: InvocationContext): Map<string, unknown> {
  const replies = new Map<string, unknown>();
  for (const part of ctx.userContent?.parts ?? []) {
    const response = part.functionResponse;
    if (!response?.id) continue;
    const value = response.response as unknown;
    const keys = value !== null && typeof value === 'object' ? Object.keys(value) : [];
    replies.set(
      response.id,
      keys.length === 1 && keys[0] === 'result' ? (value as { result: unknown }).result : value,
    );
  }
  return replies;
}
