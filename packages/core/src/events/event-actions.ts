import type { AuthConfig } from '../auth/auth-config';
import type { Content } from '../content';

/** A human decision on a tool call that requires confirmation (human in the loop). */
export interface ToolConfirmation {
  /** Text shown to the human explaining what is being approved. */
  hint?: string;
  /** The decision; `false` while still pending in a request. */
  confirmed: boolean;
  /** Optional structured data supplied with the decision. */
  payload?: unknown;
}

/**
 * Marks an event that replaces a range of older history with a summary. The range is given by
 * timestamps (the official ADKs' format) and, when this project planned it, by the ids of its first
 * and last events: then the session's event order decides what is replaced, so events sharing a
 * millisecond with the boundary are never mistaken for one another.
 *
 * The ids are not stored in `actions.compaction` (the Python ADK refuses unknown members there):
 * the flow keeps them in the compaction event's `customMetadata` under
 * {@link COMPACTION_RANGE_METADATA_KEY}.
 */
export interface EventCompaction {
  /** Timestamp (ms) of the first event the summary replaces. */
  startTimestamp: number;
  /** Timestamp (ms) of the last event the summary replaces. */
  endTimestamp: number;
  /** Id of the first event the summary replaces (with `endEventId`: ranges by event order). */
  startEventId?: string;
  /** Id of the last event the summary replaces. */
  endEventId?: string;
  /** The summary shown to the model in place of the replaced events. */
  compactedContent: Content;
}

/**
 * Key of the compaction event's `customMetadata` entry holding the ids of the first and last
 * events it replaces (`{ startEventId, endEventId }`).
 */
export const COMPACTION_RANGE_METADATA_KEY = 'adk_compaction_range';

/**
 * Side effects carried by an event. State changes only ever travel here (`stateDelta`), and are
 * applied by the session service when the event is appended.
 *
 * Every event owns its own actions object: never share one between events.
 */
export interface EventActions {
  /** State changes, keyed with the `app:`, `user:`, `temp:` prefix rules. */
  stateDelta: Record<string, unknown>;
  /** Artifacts saved during the step: file name to new version. */
  artifactDelta: Record<string, number>;
  /** Name of the agent that should take over. */
  transferToAgent?: string;
  /** Ask the enclosing loop (or parent) to stop. */
  escalate?: boolean;
  /** Do not call the model again to summarise a tool result. */
  skipSummarization?: boolean;
  /** Confirmations requested from a human, keyed by function call id. */
  requestedToolConfirmations: Record<string, ToolConfirmation>;
  /**
   * Credentials requested from the user, keyed by function call id (see
   * `ToolContext.requestCredential`): each request's `AuthConfig` without secrets. Absent unless a
   * tool asked, so events of apps without tool authentication carry nothing more.
   */
  requestedAuthConfigs?: Record<string, AuthConfig>;
  /** Set on compaction events (context compression). */
  compaction?: EventCompaction;
  /**
   * Set on a rewind event (`Runner.rewind`): the events from the first event of this invocation up
   * to the rewind event are no longer part of the conversation (see `withoutRewoundEvents`); the
   * rewind event's own deltas restore the session's state and artifacts to what they were before.
   */
  rewindBeforeInvocationId?: string;
}

/** A fresh actions object: empty, or with the members of `init` (its maps copied). */
export function createEventActions(init?: Partial<EventActions>): EventActions {
  // Nothing given (most events): the three empty maps, with nothing to spread.
  if (init === undefined)
    return { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: {} };
  const actions: EventActions = {
    ...init,
    stateDelta: { ...init.stateDelta },
    artifactDelta: { ...init.artifactDelta },
    requestedToolConfirmations: { ...init.requestedToolConfirmations },
  };
  if (init.requestedAuthConfigs) actions.requestedAuthConfigs = { ...init.requestedAuthConfigs };
  return actions;
}
