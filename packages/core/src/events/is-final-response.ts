import type { Event } from './event';

/**
 * True when `event` ends its agent's turn: the answer a caller shows the user.
 *
 * An event is final when it skips summarisation, or waits on long-running tools; otherwise when it
 * is complete (not a streamed chunk) and carries neither function calls nor function responses.
 *
 * @example
 * ```ts
 * for await (const event of runner.run(request)) if (isFinalResponse(event)) print(event);
 * ```
 */
export function isFinalResponse(event: Event): boolean {
  if (event.actions.skipSummarization) return true;
  if (event.longRunningToolIds && event.longRunningToolIds.length > 0) return true;
  if (event.partial) return false;
  for (const part of event.content?.parts ?? []) {
    if (part.functionCall || part.functionResponse) return false;
  }
  return true;
}

/** True when the event carries at least one function call. */
export function hasFunctionCalls(event: Event): boolean {
  for (const part of event.content?.parts ?? []) if (part.functionCall) return true;
  return false;
}
