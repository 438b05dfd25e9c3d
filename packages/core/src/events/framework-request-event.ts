import type { FunctionCall } from '../content';
import { createEvent, type Event, type EventActions } from '.';

/**
 * The event that pauses a run to ask the client something (a confirmation, a credential): a
 * model event whose parts are the framework's long-running function `calls`, one per question.
 * Shared by the confirmation and credential requests so both keep the same shape.
 */
export function frameworkRequestEvent(init: {
  invocationId: string;
  author: string;
  branch?: string;
  calls: readonly (FunctionCall & { id: string })[];
  actions?: Partial<EventActions>;
}): Event {
  return createEvent({
    invocationId: init.invocationId,
    author: init.author,
    ...(init.branch === undefined ? {} : { branch: init.branch }),
    content: { role: 'model', parts: init.calls.map((functionCall) => ({ functionCall })) },
    longRunningToolIds: init.calls.map((call) => call.id),
    ...(init.actions === undefined ? {} : { actions: init.actions }),
  });
}
