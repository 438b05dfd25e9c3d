import type { FunctionResponse } from '../content';
import type { Event } from '.';

/** A framework request (`adk_request_confirmation`, `adk_request_credential`) and its answer. */
export interface AnsweredRequest {
  /** The event holding the request call (authored by the agent that paused). */
  requestEvent: Event;
  /** The arguments of the request call. */
  args: Record<string, unknown>;
  /** The user's function response to it. */
  response: FunctionResponse;
}

/** True when `answer` holds a function response named `name` (checked without allocating). */
export function answersFunction(answer: Event, name: string): boolean {
  const parts = answer.content?.parts;
  if (!parts) return false;
  for (let index = 0; index < parts.length; index++) {
    if (parts[index]?.functionResponse?.name === name) return true;
  }
  return false;
}

/**
 * The requests named `name` found in `events` that `answer` (the user event of the current
 * invocation, possibly in `events`) answers with a function response of the same id and name. A
 * request already answered by another event is not answered again; unknown ids are ignored.
 */
export function findAnsweredRequests(
  events: readonly Event[],
  answer: Event,
  name: string,
): AnsweredRequest[] {
  if (!answersFunction(answer, name)) return [];
  const requests = new Map<string, { event: Event; args: Record<string, unknown> }>();
  const answeredElsewhere = new Set<string>();
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.id && call.name === name) requests.set(call.id, { event, args: call.args ?? {} });
      const response = part.functionResponse;
      if (response?.id && response.name === name && event.id !== answer.id) {
        answeredElsewhere.add(response.id);
      }
    }
  }
  const found: AnsweredRequest[] = [];
  for (const part of answer.content?.parts ?? []) {
    const response = part.functionResponse;
    if (!response?.id || response.name !== name || answeredElsewhere.has(response.id)) continue;
    const request = requests.get(response.id);
    if (request) found.push({ requestEvent: request.event, args: request.args, response });
  }
  return found;
}
