import type { CallbackContext, ReadonlyContext } from '../context';
import type { LlmRequest, LlmResponse, Model } from '../models';
import { checkProviderTools } from '../tools/provider-tool';
import type { FlowAgent } from './flow-agent';
import { appendInstruction } from './request-processors/types';

/**
 * The request as the agent's planner wants it (Python's NL-planning request processor): the
 * planner's request changes (a `BuiltInPlanner` sets the thinking config), then its instruction
 * appended to the static part of the system instruction. Then the request's provider-side tools
 * are checked against the model (a tool from a toolset is first seen here): one it cannot take, or
 * cannot take next to the request's function declarations, throws `UnsupportedProviderToolError`
 * before anything is sent.
 */
export function planRequest(
  agent: FlowAgent,
  model: Model,
  request: LlmRequest,
  context: ReadonlyContext,
): LlmRequest {
  const planner = agent.planner;
  let planned = request;
  if (planner) {
    if (planner.processRequest) planned = planner.processRequest(planned);
    const instruction = planner.buildPlanningInstruction(context, planned);
    if (instruction) planned = appendInstruction(planned, instruction);
  }
  const providerTools = planned.config.providerTools;
  if (providerTools?.length) {
    const withFunctions = (planned.config.tools ?? []).some(
      (group) => group.functionDeclarations.length > 0,
    );
    checkProviderTools(
      model,
      providerTools.map((tool) => tool.type),
      agent.name,
      withFunctions,
    );
  }
  return planned;
}

/**
 * `response` with its parts as the agent's planner keeps them (Python's NL-planning response
 * processor), streamed chunks included; the same response when there is no planner, no part, or
 * the planner keeps the parts as they are. The response object is not modified.
 */
export function planResponse(
  agent: FlowAgent,
  response: LlmResponse,
  context: () => CallbackContext,
): LlmResponse {
  const planner = agent.planner;
  const content = response.content;
  if (!planner || !content || content.parts.length === 0) return response;
  const parts = planner.processPlanningResponse(context(), content.parts);
  if (!parts || parts.length === 0) return response;
  return { ...response, content: { ...content, parts } };
}
