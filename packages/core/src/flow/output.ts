import type { FlowAgent } from './flow-agent';
import { getText } from '../content';
import { OutputValidationError } from '../errors/output-validation-error';
import { isFinalResponse, type Event } from '../events';

/**
 * Apply `outputSchema` and `outputKey` to an event of `agent`: for the agent's final, complete,
 * non-error answer with text, validate the text against `outputSchema` (JSON, then the schema) and
 * save the value (the text, or the parsed value) to `event.actions.stateDelta[outputKey]`.
 *
 * Returns the validation error when the answer does not match the schema (nothing is saved then).
 * Partial events, function calls and error events are never saved.
 */
export function applyOutput(agent: FlowAgent, event: Event): OutputValidationError | undefined {
  if (agent.outputKey === undefined && agent.outputSchema === undefined) return undefined;
  if (event.partial || event.author !== agent.name || event.errorCode !== undefined)
    return undefined;
  if (!isFinalResponse(event) || event.longRunningToolIds?.length) return undefined;
  const text = getText(event.content);
  if (text.trim() === '') return undefined;
  let value: unknown = text;
  if (agent.outputSchema) {
    let json: unknown;
    try {
      json = JSON.parse(stripJsonFence(text));
    } catch (error) {
      return new OutputValidationError({
        agentName: agent.name,
        issues: [`the answer is not valid JSON (${(error as Error).message})`],
        cause: error,
      });
    }
    const checked = checkOutputValue(agent, json);
    if (checked instanceof OutputValidationError) return checked;
    value = checked.value;
  }
  if (agent.outputKey !== undefined) event.actions.stateDelta[agent.outputKey] = value;
  return undefined;
}

/**
 * Validate a parsed JSON value against the `outputSchema` of `agent`: the parsed value (defaults
 * and transforms applied), or the validation error naming each issue. Used for answers given as
 * text and for the arguments of `set_model_response`. `agent` must have an `outputSchema`.
 */
export function checkOutputValue(
  agent: FlowAgent,
  json: unknown,
): { value: unknown } | OutputValidationError {
  const result = agent.outputSchema!.safeParse(json);
  if (result.success) return { value: result.data };
  return new OutputValidationError({
    agentName: agent.name,
    issues: result.error.issues.map((issue) =>
      issue.path.length > 0
        ? `${issue.path.map(String).join('.')}: ${issue.message}`
        : issue.message,
    ),
    cause: result.error,
  });
}

/** Models sometimes wrap JSON in a Markdown code fence; accept that. */
function stripJsonFence(text: string): string {
  const trimmed = text.trim();
  const match = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  return match ? match[1]! : trimmed;
}
