import type { Event } from '../events';

/** The function call a new user message answers: who made it, and on which branch. */
export interface ResumedCall {
  author: string;
  branch: string | undefined;
}

/**
 * The call a new user message resumes: when the latest event is a user message carrying function
 * responses (the result of a long-running tool, or the answer to a confirmation request), the
 * author and branch of the call it answers; otherwise `undefined`. Calls are looked up from the
 * newest event back, so a restarted process finds them in the stored session.
 */
export function findResumedCall(events: readonly Event[]): ResumedCall | undefined {
  const last = events[events.length - 1];
  if (!last || last.author !== 'user') return undefined;
  // Created only for a message that carries responses (a plain message, most turns, needs none).
  let ids: Set<string> | undefined;
  const parts = last.content?.parts;
  if (parts) {
    for (let index = 0; index < parts.length; index++) {
      const id = parts[index]!.functionResponse?.id;
      if (id) (ids ??= new Set()).add(id);
    }
  }
  if (ids === undefined) return undefined;
  for (let index = events.length - 2; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author === 'user') continue;
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall?.id && ids.has(part.functionCall.id)) {
        return { author: event.author, branch: event.branch };
      }
    }
  }
  return undefined;
}

/**
 * The name of the agent a new user message resumes (see {@link findResumedCall}).
 *
 * @example
 * ```ts
 * const name = findResumedCaller(session.events); // 'billing' after its call was answered
 * ```
 */
export function findResumedCaller(events: readonly Event[]): string | undefined {
  return findResumedCall(events)?.author;
}

/**
 * The branch `agentName` must run on to resume the call the latest user message answers (the
 * branch of the call), or `undefined` when the message resumes nothing of that agent.
 */
export function resumedBranch(events: readonly Event[], agentName: string): string | undefined {
  const call = findResumedCall(events);
  return call?.author === agentName ? call.branch : undefined;
}
