import { createEvent, type Event, type InvocationContext, type StoredNodeError } from '@adk/core';

/**
 * Key in an event's `customMetadata` of a failed attempt that is retried (a record beside the run
 * records of `adk_workflow`, which the resume reader does not need).
 */
export const ATTEMPT_METADATA_KEY = 'adk_workflow_attempt';

/**
 * An attempt of a node execution failed and the node is retried: Python ADK emits an error event
 * per failed attempt; this is its counterpart, a plain event (not an error event: the run has not
 * failed, and an error event means a failure to A2A clients and to the unread-error warning).
 */
export interface NodeAttemptFailedRecord {
  kind: 'attempt-failed';
  workflow: string;
  run: string;
  path: string;
  node: string;
  /** The attempt that failed, counted from 1. */
  attempt: number;
  /** Why it failed (`attempts` is the failed attempt's number). */
  error: StoredNodeError;
  /** The delay before the next attempt, in ms. */
  retryInMs: number;
}

/** The failed-attempt record an event carries, if any. */
export function failedAttemptOf(event: Event): NodeAttemptFailedRecord | undefined {
  const record = event.customMetadata?.[ATTEMPT_METADATA_KEY];
  if (record === null || typeof record !== 'object') return undefined;
  return (record as { kind?: unknown }).kind === 'attempt-failed'
    ? (record as NodeAttemptFailedRecord)
    : undefined;
}

/** @internal The event recording a failed attempt of a node. */
export function attemptFailedEvent(ctx: InvocationContext, record: NodeAttemptFailedRecord): Event {
  return createEvent({
    invocationId: ctx.invocationId,
    author: record.workflow,
    branch: ctx.branch,
    customMetadata: { [ATTEMPT_METADATA_KEY]: record },
  });
}
