import { randomUUID } from 'node:crypto';

import type { InvocationContext } from '../agents/invocation-context';
import type { FunctionCall, Part } from '../content';
import { AdkError } from '../errors/adk-error';
import { describeCause } from '../errors/describe-cause';
import { createEvent, type Event, type EventActions } from '../events';
import type { LlmResponse } from '../models';
import type { Tool } from '../tools/tool';

/** An error event authored by `author`: no content, `errorCode` and `errorMessage` set. */
export function errorEvent(
  ctx: InvocationContext,
  author: string,
  error: unknown,
  fallbackCode = 'UNKNOWN_ERROR',
): Event {
  return createEvent({
    invocationId: ctx.invocationId,
    author,
    branch: ctx.branch,
    errorCode: AdkError.isInstance(error) ? error.code : fallbackCode,
    errorMessage: describeCause(error),
  });
}

/**
 * The event for a model response. Function calls without an id get one (`adk-<uuid>`); calls to
 * long-running tools are listed in `longRunningToolIds`; a content without parts is dropped. The
 * response object is not modified.
 */
export function modelResponseEvent(
  ctx: InvocationContext,
  author: string,
  response: LlmResponse,
  actions: EventActions | undefined,
  tools: ReadonlyMap<string, Tool>,
): Event {
  // Never store `{ parts: [] }` (providers reject it when it is sent back).
  let content = response.content?.parts.length ? response.content : undefined;
  let longRunningToolIds: string[] | undefined;
  if (content && !response.partial) {
    let parts: Part[] | undefined;
    content.parts.forEach((part, index) => {
      const call = part.functionCall;
      if (!call) return;
      let id = call.id;
      if (!id) {
        id = `adk-${randomUUID()}`;
        parts ??= [...content!.parts];
        parts[index] = { ...part, functionCall: { ...call, id } satisfies FunctionCall };
      }
      if (tools.get(call.name)?.isLongRunning) (longRunningToolIds ??= []).push(id);
    });
    if (parts) content = { ...content, parts };
  }
  const event = createEvent({
    ...response,
    content: content && { ...content, role: content.role ?? 'model' },
    invocationId: ctx.invocationId,
    author,
    branch: ctx.branch,
    actions,
  });
  if (longRunningToolIds) event.longRunningToolIds = longRunningToolIds;
  return event;
}
