import type { Event } from './event';

/**
 * Key of the run record in an event's `customMetadata`: the step log of agents that run in steps
 * (the graph workflows of `@adk/workflow`). The name is the stored format's, kept as it is.
 */
export const WORKFLOW_METADATA_KEY = 'adk_workflow';

/**
 * True when `event` pauses its invocation: it lists long-running calls (a confirmation or
 * credential request, a long-running tool still working), or it is a graph workflow's pause
 * record (`interrupt`), which lists no call when it waits on calls another event made (an agent
 * node's, a nested workflow's): each call is listed once, by the event that made it.
 */
export function isPauseEvent(event: Event): boolean {
  if (event.longRunningToolIds !== undefined && event.longRunningToolIds.length > 0) return true;
  const record = event.customMetadata?.[WORKFLOW_METADATA_KEY];
  return (
    record !== null &&
    typeof record === 'object' &&
    (record as { kind?: unknown }).kind === 'interrupt'
  );
}
