import type { AgentNode, InvocationContext } from '../invocation/invocation-context';
import type { Content } from '../content';
import { InvocationReadonlyContext } from '../context/invocation-contexts';
import type { ToolContext } from '../context';
import { createEvent, type Event } from '../events';
import { INPUT_REJECTED_ERROR_CODE } from '../history/index';
import {
  evaluateInput,
  evaluateOutput,
  evaluateToolCall,
  type InputVerdict,
} from '../policies/evaluate-policies';
import type { Policy } from '../policies/policy';

/** `errorCode` of a tool response refused by a policy. */
export const TOOL_CALL_DENIED_CODE = 'TOOL_CALL_DENIED';
/** `errorCode` of a tool response for a call a human rejected. */
export const TOOL_CALL_REJECTED_CODE = 'TOOL_CALL_REJECTED';
/** `errorCode` of the response of a call paused for a human confirmation. */
export const CONFIRMATION_REQUIRED_CODE = 'CONFIRMATION_REQUIRED';

/** The policies that apply to `agent`: the runner's (first), then the agent's own. */
export function policiesFor(ctx: InvocationContext, agent: AgentNode): readonly Policy[] {
  const own = (agent as { policies?: readonly Policy[] }).policies ?? [];
  const global = ctx.policies;
  if (own.length === 0) return global;
  if (global.length === 0) return own;
  return [...global, ...own];
}

/**
 * Authorize one function call before it runs. Returns the function response to give the model
 * instead of running the tool, or `undefined` to run it:
 * - a call a human rejected (its confirmation says `confirmed: false`) is never run;
 * - a call a policy denies gets `{ error: { code: 'TOOL_CALL_DENIED', message: reason } }`;
 * - a call a policy wants confirmed (and that carries no approval yet) records a confirmation
 *   request, exactly as `FunctionTool({ requireConfirmation })` does, and the run pauses.
 */
export async function authorizeToolCall(options: {
  ctx: InvocationContext;
  agent: AgentNode;
  toolName: string;
  args: Record<string, unknown>;
  toolContext: ToolContext;
}): Promise<Record<string, unknown> | undefined> {
  const { ctx, agent, toolName, args, toolContext } = options;
  const confirmation = toolContext.toolConfirmation;
  if (confirmation && !confirmation.confirmed) {
    const error: Record<string, unknown> = {
      code: TOOL_CALL_REJECTED_CODE,
      message: `The call to "${toolName}" was rejected.`,
    };
    if (confirmation.payload !== undefined) error.payload = confirmation.payload;
    return { error };
  }
  const policies = policiesFor(ctx, agent);
  if (policies.length === 0) return undefined;
  const verdict = await evaluateToolCall(policies, {
    toolName,
    args,
    functionCallId: toolContext.functionCallId,
    confirmation,
    context: toolContext,
  });
  switch (verdict.outcome) {
    case 'allow':
      return undefined;
    case 'deny':
      return { error: { code: TOOL_CALL_DENIED_CODE, message: verdict.reason } };
    case 'confirm':
      toolContext.requestConfirmation({
        hint: verdict.hint,
        payload: args,
        ...(verdict.timeoutMs === undefined ? {} : { timeoutMs: verdict.timeoutMs }),
      });
      toolContext.actions.skipSummarization = true;
      return {
        error: {
          code: CONFIRMATION_REQUIRED_CODE,
          message: `The call to "${toolName}" needs a human confirmation; it has been requested.`,
        },
      };
  }
}

/**
 * `event` (a model response of `agent`, streamed chunk or final) with its content passed through
 * the output filters; the same event when no filter changes it.
 */
export async function filterModelEvent(
  ctx: InvocationContext,
  agent: AgentNode,
  event: Event,
): Promise<Event> {
  const policies = policiesFor(ctx, agent);
  if (!event.content || !policies.some((policy) => policy.filterOutput)) return event;
  const content = await evaluateOutput(policies, {
    content: event.content,
    partial: event.partial === true,
    context: new InvocationReadonlyContext(ctx),
  });
  return content === event.content ? event : { ...event, content };
}

/** Run the input filters of `policies` on the user's message. */
export async function filterUserMessage(
  policies: readonly Policy[],
  ctx: InvocationContext,
  content: Content,
): Promise<InputVerdict> {
  if (!policies.some((policy) => policy.filterInput))
    return { outcome: 'allow', content, rewrittenBy: [] };
  return evaluateInput(policies, {
    content,
    appName: ctx.appName,
    userId: ctx.userId,
    sessionId: ctx.sessionId,
    agentName: ctx.agent.name,
  });
}

/**
 * The event that ends an invocation whose user message a policy rejected: authored by `author`,
 * `errorCode: 'INPUT_REJECTED'`, the reason as `errorMessage` and as text for the user. The rejected
 * message is never shown to a model afterwards.
 */
export function inputRejectedEvent(
  ctx: InvocationContext,
  author: string,
  reason: string,
  policy: string,
): Event {
  return createEvent({
    invocationId: ctx.invocationId,
    author,
    content: { role: 'model', parts: [{ text: reason }] },
    errorCode: INPUT_REJECTED_ERROR_CODE,
    errorMessage: `Rejected by policy "${policy}": ${reason}`,
    turnComplete: true,
  });
}
