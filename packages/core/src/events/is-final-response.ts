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
  // Index loops: `for...of` allocates per part over arrays of mixed kinds (frozen and not).
  const parts = event.content?.parts;
  if (parts === undefined) return true;
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (part.functionCall || part.functionResponse) return false;
  }
  return true;
}

/** True when the event carries at least one function call. */
export function hasFunctionCalls(event: Event): boolean {
  const parts = event.content?.parts;
  if (parts === undefined) return false;
  for (let index = 0; index < parts.length; index++) if (parts[index]!.functionCall) return true;
  return false;
}
