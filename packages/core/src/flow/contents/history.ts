import type { Content, Part } from '../../content';
import type { Event, EventCompaction } from '../../events';
import { isVisibleInBranch } from './branch';

/** One entry of the history an agent sees: a plain event, or a summary standing for older events. */
export type HistoryItem =
  | { readonly kind: 'event'; readonly event: Event }
  | { readonly kind: 'compaction'; readonly event: Event; readonly compaction: EventCompaction };

/**
 * `errorCode` of the event that ends an invocation whose user message a policy rejected. The
 * rejected message stays in the session (auditable) but is never shown to a model again.
 */
export const INPUT_REJECTED_ERROR_CODE = 'INPUT_REJECTED';

/** Options of {@link selectHistory}. */
export interface SelectHistoryOptions {
  /** Branch of the agent the history is for; unset on the main line (sees every branch). */
  branch?: string;
}

/** True for a part that carries nothing (an empty text without any other data). */
export function isEmptyPart(part: Part): boolean {
  return (
    (part.text === undefined || part.text === '') &&
    !part.inlineData &&
    !part.fileData &&
    !part.functionCall &&
    !part.functionResponse
  );
}

/** True when a content has at least one non-empty part. */
export function hasMeaningfulContent(content: Content | undefined): content is Content {
  if (!content) return false;
  for (const part of content.parts) if (!isEmptyPart(part)) return true;
  return false;
}

function inRange(timestamp: number, compaction: EventCompaction): boolean {
  return timestamp >= compaction.startTimestamp && timestamp <= compaction.endTimestamp;
}

/** A compaction is superseded when a later (or wider) one covers its whole range. */
function activeCompactions(candidates: readonly Event[]): Event[] {
  const compactionEvents = candidates.filter((event) => event.actions?.compaction);
  return compactionEvents.filter((event, index) => {
    const own = event.actions.compaction as EventCompaction;
    return !compactionEvents.some((other, otherIndex) => {
      if (otherIndex === index) return false;
      const wider = other.actions.compaction as EventCompaction;
      const contains =
        wider.startTimestamp <= own.startTimestamp && own.endTimestamp <= wider.endTimestamp;
      if (!contains) return false;
      const strictlyWider =
        wider.startTimestamp < own.startTimestamp || own.endTimestamp < wider.endTimestamp;
      return strictlyWider || otherIndex > index;
    });
  });
}

/**
 * The history an agent on `branch` sees, oldest first: events of other parallel branches, partial
 * (streamed) chunks, error events, empty events and user messages a policy rejected
 * ({@link INPUT_REJECTED_ERROR_CODE}) are left out, and every range of events
 * replaced by a compaction (`actions.compaction`) is left out too, its summary standing at the
 * place of the first event it replaces.
 *
 * Context compressors use it to measure what the model would receive; {@link buildContents}
 * renders it. Pure: the input events are never modified.
 */
export function selectHistory(
  events: readonly Event[],
  options: SelectHistoryOptions = {},
): HistoryItem[] {
  const { branch } = options;
  // Common case, in one pass without closures: no compaction and no rejected input among the
  // visible events, so each event stands for itself.
  let plain = true;
  for (const event of events) {
    if (event.partial || !isVisibleInBranch(event.branch, branch)) continue;
    if (event.actions?.compaction || event.errorCode === INPUT_REJECTED_ERROR_CODE) {
      plain = false;
      break;
    }
  }
  if (plain) {
    const items: HistoryItem[] = [];
    for (const event of events) {
      if (event.partial || !isVisibleInBranch(event.branch, branch)) continue;
      if (event.errorCode !== undefined || !hasMeaningfulContent(event.content)) continue;
      items.push({ kind: 'event', event });
    }
    return items;
  }
  const candidates = events.filter(
    (event) => !event.partial && isVisibleInBranch(event.branch, branch),
  );
  const compactions = activeCompactions(candidates);
  const hidden = (event: Event): boolean =>
    compactions.some((compaction) =>
      inRange(event.timestamp, compaction.actions.compaction as EventCompaction),
    );

  const pending = compactions
    .map((event) => ({ event, compaction: event.actions.compaction as EventCompaction }))
    .sort((a, b) => a.compaction.startTimestamp - b.compaction.startTimestamp);
  const rejected = new Set(
    candidates
      .filter((event) => event.errorCode === INPUT_REJECTED_ERROR_CODE)
      .map((event) => event.invocationId),
  );
  const items: HistoryItem[] = [];
  const flushCompactionsUpTo = (timestamp: number): void => {
    while (
      pending.length > 0 &&
      (pending[0] as (typeof pending)[number]).compaction.startTimestamp <= timestamp
    ) {
      const next = pending.shift() as (typeof pending)[number];
      items.push({ kind: 'compaction', event: next.event, compaction: next.compaction });
    }
  };

  for (const event of candidates) {
    if (event.actions?.compaction) continue;
    flushCompactionsUpTo(event.timestamp);
    if (hidden(event)) continue;
    if (event.errorCode !== undefined) continue;
    if (event.author === 'user' && rejected.has(event.invocationId)) continue;
    if (!hasMeaningfulContent(event.content)) continue;
    items.push({ kind: 'event', event });
  }
  flushCompactionsUpTo(Number.POSITIVE_INFINITY);
  return items;
}
