import type { Event } from '../../events';

/**
 * The agent a new user message resumes: when the latest event is a user message carrying function
 * responses (the result of a long-running tool, or the answer to a confirmation request), the
 * author of the call it answers; otherwise `undefined`. Calls are looked up from the newest event
 * back, so a restarted process finds them in the stored session.
 *
 * @example
 * ```ts
 * const name = findResumedCaller(session.events); // 'billing' after its call was answered
 * ```
 */
export function findResumedCaller(events: readonly Event[]): string | undefined {
  const last = events[events.length - 1];
  if (!last || last.author !== 'user') return undefined;
  const ids = new Set<string>();
  for (const part of last.content?.parts ?? []) {
    if (part.functionResponse?.id) ids.add(part.functionResponse.id);
  }
  if (ids.size === 0) return undefined;
  for (let index = events.length - 2; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.author === 'user') continue;
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall?.id && ids.has(part.functionCall.id)) return event.author;
    }
  }
  return undefined;
}
