import type { InvocationContext } from '../agents/invocation-context';
import type { LlmAgent } from '../agents/llm-agent';
import type { FunctionCall } from '../content';
import { InvocationReadonlyContext } from '../context/invocation-contexts';
import type { Event, ToolConfirmation } from '../events';
import { executeFunctionCalls } from '../flow/execute-tools';
import { resolveTools } from '../flow/resolve-tools';
import type { StepPostprocessorInput } from '../flow/step-postprocessors';
import { withTransferTool } from '../tools/transfer-to-agent-flow';
import {
  createConfirmationRequestEvent,
  findAnsweredConfirmations,
  type AnsweredConfirmation,
  type ConfirmationRequest,
} from './confirmation';

function findCall(events: readonly Event[], id: string): FunctionCall | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    for (const part of events[index]?.content?.parts ?? []) {
      if (part.functionCall?.id === id) return part.functionCall;
    }
  }
  return undefined;
}

/**
 * Step postprocessor: when tools of the step asked for a human confirmation
 * (`actions.requestedToolConfirmations`, from a policy or `FunctionTool({ requireConfirmation })`),
 * return the `adk_request_confirmation` event. It is final (long-running), so the invocation ends
 * there and waits for the user's answer. Synchronous: most steps request no confirmation.
 */
export function requestConfirmations(input: StepPostprocessorInput): Event[] | undefined {
  const { agent, ctx, event } = input;
  const requested = event.actions.requestedToolConfirmations;
  let requests: ConfirmationRequest[] | undefined;
  for (const id in requested) {
    const confirmation = requested[id]!;
    const call = findCall(ctx.session.events, id);
    if (!call) continue;
    const request: ConfirmationRequest = { call: { ...call, id } };
    if (confirmation.hint !== undefined) request.hint = confirmation.hint;
    if (confirmation.payload !== undefined) request.payload = confirmation.payload;
    (requests ??= []).push(request);
  }
  if (!requests) return undefined;
  return [
    createConfirmationRequestEvent({
      invocationId: ctx.invocationId,
      author: agent.name,
      branch: ctx.branch,
      requests,
    }),
  ];
}

/** The user event that started the invocation of `ctx`, if it is stored. */
function currentUserEvent(ctx: InvocationContext): Event | undefined {
  const events = ctx.session.events;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.invocationId !== ctx.invocationId) break;
    if (event.author === 'user') return event;
  }
  return undefined;
}

/**
 * Checked before an agent's first step: the confirmation requests this agent made that the user's
 * message answers (none for most turns). Works from any Runner instance: the requests are read
 * from the session's events.
 */
export function confirmationsToResume(
  agent: LlmAgent,
  ctx: InvocationContext,
): AnsweredConfirmation[] {
  const answer = currentUserEvent(ctx);
  if (!answer) return [];
  return findAnsweredConfirmations(ctx.session.events, answer).filter(
    (entry) => entry.requestEvent.author === agent.name,
  );
}

/**
 * Resume the calls of {@link confirmationsToResume}: execute the approved ones (with
 * `toolContext.toolConfirmation` set) and answer the rejected ones (a malformed answer counts as a
 * rejection), in one function-response event. The agent's loop then continues and the model sees
 * the results.
 */
export async function* resumeConfirmedCalls(
  agent: LlmAgent,
  ctx: InvocationContext,
  answered: readonly AnsweredConfirmation[],
): AsyncGenerator<Event, void> {
  const resolved = withTransferTool(
    agent,
    await resolveTools(agent, new InvocationReadonlyContext(ctx)),
  );
  const confirmations: Record<string, ToolConfirmation> = {};
  for (const entry of answered)
    confirmations[entry.call.id] = entry.confirmation ?? { confirmed: false };
  const event = await executeFunctionCalls({
    agent,
    ctx,
    calls: answered.map((entry) => entry.call),
    tools: resolved.byName,
    parentSpanId: undefined,
    confirmations,
  });
  if (event) yield event;
}
