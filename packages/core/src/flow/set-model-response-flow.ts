import type { InvocationContext } from '../invocation/invocation-context';
import type { FlowAgent } from './flow-agent';
import type { FunctionCall } from '../content';
import { OutputValidationError } from '../errors/output-validation-error';
import { createEvent, type Event } from '../events';
import { checkOutputValue } from './output';
import type { ResolvedTools } from './resolve-tools';
import { SET_MODEL_RESPONSE, SetModelResponseTool } from './set-model-response-tool';

/**
 * The final answer carried by a `set_model_response` call among `calls`, as JSON text, when the
 * step offers the built-in tool: `undefined` when no call is for it, the validation error when its
 * arguments do not match the agent's `outputSchema` (the first such call counts).
 */
export function structuredAnswer(
  agent: FlowAgent,
  tools: ResolvedTools,
  calls: readonly FunctionCall[],
): string | OutputValidationError | undefined {
  const tool = tools.byName.get(SET_MODEL_RESPONSE);
  if (!(tool instanceof SetModelResponseTool)) return undefined;
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index]!;
    if (call.name !== SET_MODEL_RESPONSE) continue;
    const value = tool.answerOf(call);
    const checked = checkOutputValue(agent, value);
    if (checked instanceof OutputValidationError) {
      return new OutputValidationError({
        agentName: agent.name,
        issues: checked.issues.map((issue) => `${SET_MODEL_RESPONSE} arguments: ${issue}`),
        cause: checked.cause,
      });
    }
    return JSON.stringify(value ?? null);
  }
  return undefined;
}

/** The agent's final answer given through `set_model_response`: a model message with the JSON. */
export function structuredAnswerEvent(ctx: InvocationContext, author: string, text: string): Event {
  return createEvent({
    invocationId: ctx.invocationId,
    author,
    branch: ctx.branch,
    content: { role: 'model', parts: [{ text }] },
  });
}
