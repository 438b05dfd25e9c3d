import {
  createEvent,
  FunctionTool,
  type Event,
  type FunctionResponse,
  type InvocationContext,
} from '@adk/core';
import { z } from 'zod';

/** Name of the tool a task-mode agent calls to hand back its result. */
export const FINISH_TASK_TOOL_NAME = 'finish_task';

/** The arguments of a delegation call when the task agent declares no `inputSchema`. */
const DEFAULT_TASK_ARGUMENTS = z.object({
  request: z.string().describe('The task: what is asked, with what is already known.'),
});

/** The response of a delegation call until the task's result answers it. */
export const DELEGATED_STATUS = Object.freeze({ status: 'delegated' });

/**
 * @internal The function named after a task agent that its parent `LlmAgent` calls to delegate
 * a task (Python ADK's task tool of a chat agent): the call's arguments are the task, the call
 * hands control to the task agent, and the task's result later answers the call.
 */
export function delegationTool(
  agent: { name: string; description: string | undefined },
  inputSchema: z.ZodType | undefined,
): FunctionTool<unknown> {
  return new FunctionTool<unknown>({
    name: agent.name,
    description:
      agent.description ??
      `Delegate a task to ${agent.name}; its result comes back as this call's response.`,
    parameters: inputSchema ?? DEFAULT_TASK_ARGUMENTS,
    execute: (_args, context) => {
      context.actions.transferToAgent = agent.name;
      return DELEGATED_STATUS;
    },
  });
}

/** The result of a successful `finish_task` answered in `event`, if any. */
export function finishedTask(event: Event): { result: unknown } | undefined {
  for (const part of event.content?.parts ?? []) {
    const response = part.functionResponse;
    if (response?.name !== FINISH_TASK_TOOL_NAME) continue;
    const value = response.response as Record<string, unknown> | undefined;
    if (value && 'result' in value && !('error' in value)) return { result: value.result };
  }
  return undefined;
}

/**
 * @internal The id of `parent`'s latest call delegating to `taskName` that no result answered
 * yet (a user-authored response of that id), if any.
 */
export function pendingDelegation(
  events: readonly Event[],
  parent: string,
  taskName: string,
): string | undefined {
  const answered = new Set<string>();
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      if (event.author === 'user' && response?.id) answered.add(response.id);
      const call = part.functionCall;
      if (event.author === parent && call?.name === taskName && call.id) {
        return answered.has(call.id) ? undefined : call.id;
      }
    }
  }
  return undefined;
}

/**
 * @internal The event answering the delegation call `id` with the task's result, as Python's
 * chat agent synthesizes it: an object result as the response, any other value as `{ output }`.
 */
export function delegationAnswer(
  ctx: InvocationContext,
  id: string,
  taskName: string,
  result: unknown,
): Event {
  const response: FunctionResponse['response'] =
    result !== null && typeof result === 'object' && !Array.isArray(result)
      ? (result as Record<string, unknown>)
      : { output: result };
  return createEvent({
    invocationId: ctx.invocationId,
    author: 'user',
    branch: ctx.branch,
    content: { role: 'user', parts: [{ functionResponse: { id, name: taskName, response } }] },
  });
}
