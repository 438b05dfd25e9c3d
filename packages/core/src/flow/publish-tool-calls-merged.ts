import type { InvocationContext } from '../invocation/invocation-context';
import { newSpanId } from '../invocation/span-id';
import type { Event } from '../events';
import { publish } from '../diagnostics/channels';

/**
 * Publish `toolCallsMerged` for `event`, the merged function-response event of a model response
 * with several function calls (the flow calls it only when the channel has subscribers).
 * `modelSpanId` is the span of the model call that asked for the calls.
 */
export function publishToolCallsMerged(
  ctx: InvocationContext,
  agentName: string,
  modelSpanId: string | undefined,
  event: Event,
): void {
  const functionCallIds: string[] = [];
  for (const part of event.content?.parts ?? []) {
    if (part.functionResponse) functionCallIds.push(part.functionResponse.id ?? '');
  }
  publish('toolCallsMerged', () => ({
    spanId: newSpanId(),
    parentSpanId: modelSpanId ?? ctx.spanId,
    invocationId: ctx.invocationId,
    appName: ctx.appName,
    userId: ctx.userId,
    sessionId: ctx.sessionId,
    agentName,
    eventId: event.id,
    functionCallIds,
  }));
}
