import type { Content } from '../content';
import type {
  InputDecision,
  InputFilterRequest,
  OutputFilterRequest,
  Policy,
  ToolCallRequest,
  ToolDecision,
} from './policy';

/** Result of {@link evaluateInput}: the (possibly rewritten) message, or a rejection. */
export type InputVerdict =
  | { readonly outcome: 'allow'; readonly content: Content; readonly rewrittenBy: string[] }
  | { readonly outcome: 'reject'; readonly reason: string; readonly policy: string };

/** Result of {@link evaluateToolCall}. */
export type ToolVerdict = ToolDecision & { readonly policy?: string };

/**
 * Run the input filters in order. Each filter sees the message as rewritten by the previous ones;
 * the first rejection stops the evaluation.
 */
export async function evaluateInput(
  policies: readonly Policy[],
  request: InputFilterRequest,
): Promise<InputVerdict> {
  let content = request.content;
  const rewrittenBy: string[] = [];
  for (const policy of policies) {
    if (!policy.filterInput) continue;
    const decision: InputDecision | undefined = await policy.filterInput({ ...request, content });
    if (!decision || decision.outcome === 'allow') continue;
    if (decision.outcome === 'reject')
      return { outcome: 'reject', reason: decision.reason, policy: policy.name };
    content = decision.content;
    rewrittenBy.push(policy.name);
  }
  return { outcome: 'allow', content, rewrittenBy };
}

/** Run the output filters in order, each on the previous one's result. */
export async function evaluateOutput(
  policies: readonly Policy[],
  request: OutputFilterRequest,
): Promise<Content> {
  let content = request.content;
  for (const policy of policies) {
    if (!policy.filterOutput) continue;
    content = (await policy.filterOutput({ ...request, content })) ?? content;
  }
  return content;
}

/**
 * Authorize one tool call: the first denial wins; otherwise a confirmation is required when any
 * policy asks for one and the call does not already carry an approval; otherwise it is allowed.
 */
export async function evaluateToolCall(
  policies: readonly Policy[],
  request: ToolCallRequest,
): Promise<ToolVerdict> {
  let confirmation: ToolVerdict | undefined;
  for (const policy of policies) {
    if (!policy.authorizeTool) continue;
    const decision = await policy.authorizeTool(request);
    if (!decision || decision.outcome === 'allow') continue;
    if (decision.outcome === 'deny') return { ...decision, policy: policy.name };
    confirmation ??= { ...decision, policy: policy.name };
  }
  if (confirmation && !request.confirmation?.confirmed) return confirmation;
  return { outcome: 'allow' };
}

/** The function response a model receives for a denied call. */
export function deniedToolResponse(reason: string): Record<string, unknown> {
  return { error: `Tool call denied: ${reason}` };
}
