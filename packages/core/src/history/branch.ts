/**
 * Whether an event recorded on `eventBranch` is visible to an agent running on `currentBranch`.
 *
 * Branches are dot-separated agent paths (`parallel.child.grandchild`). An event is visible when
 * the current agent has no branch (the main line sees everything, so an agent placed after a
 * `ParallelAgent` sees every branch's results), when the event has no branch (main-line history),
 * when both branches are equal, or when the event's branch is an ancestor of the current one.
 * Parallel siblings therefore never see each other's events.
 *
 * @example
 * ```ts
 * isVisibleInBranch('par.a', 'par.a.seq'); // true: ancestor
 * isVisibleInBranch('par.b', 'par.a');     // false: sibling
 * ```
 */
export function isVisibleInBranch(
  eventBranch: string | undefined,
  currentBranch: string | undefined,
): boolean {
  if (!currentBranch || !eventBranch) return true;
  if (eventBranch === currentBranch) return true;
  return currentBranch.startsWith(eventBranch + '.');
}
