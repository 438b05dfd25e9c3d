import type { Content, Part } from '../content';
import { COMPACTION_RANGE_METADATA_KEY, type Event, type EventCompaction } from '../events';
import { isVisibleInBranch } from './branch';
import { withoutRewoundEvents } from './rewound-events';

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
    !part.functionResponse &&
    !part.executableCode &&
    !part.codeExecutionResult
  );
}

/** True when a content has at least one non-empty part. */
export function hasMeaningfulContent(content: Content | undefined): content is Content {
  if (!content) return false;
  // Index loops over parts and events in this module and the rendering: `for...of` allocates an
  // iterator result per element when the arrays met are of mixed kinds (frozen stored events,
  // plain new ones), as they are on every turn.
  const parts = content.parts;
  for (let index = 0; index < parts.length; index++) if (!isEmptyPart(parts[index]!)) return true;
  return false;
}

/**
 * Whether {@link selectHistory} shows `event` to an agent on `branch` when no compaction or
 * rejected input is in play: not partial, visible on the branch, no error, some content.
 */
export function isShownPlainEvent(event: Event, branch: string | undefined): boolean {
  return (
    !event.partial &&
    isVisibleInBranch(event.branch, branch) &&
    event.errorCode === undefined &&
    hasMeaningfulContent(event.content)
  );
}

/**
 * Where a compaction lies in the session's events: positions `[first, last]` of the events it
 * replaces. A compaction naming its first and last event ids (this project's) is placed by event
 * order; one without them (written by another ADK) by its timestamps.
 */
interface PlacedCompaction {
  readonly event: Event;
  readonly compaction: EventCompaction;
  /** Placed by event ids; otherwise by timestamps. */
  readonly byOrder: boolean;
  readonly first: number;
  readonly last: number;
}

/**
 * The ids of the first and last events a compaction event replaces: from its `customMetadata`
 * (where the flow stores them) or from the compaction itself; `undefined` members when unknown (a
 * compaction written by another ADK).
 */
export function compactionRangeIds(
  event: Event,
  compaction: EventCompaction,
): { startEventId: string | undefined; endEventId: string | undefined } {
  if (compaction.startEventId !== undefined && compaction.endEventId !== undefined) {
    return { startEventId: compaction.startEventId, endEventId: compaction.endEventId };
  }
  const stored = event.customMetadata?.[COMPACTION_RANGE_METADATA_KEY] as
    { startEventId?: unknown; endEventId?: unknown } | undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return { startEventId: text(stored?.startEventId), endEventId: text(stored?.endEventId) };
}

function place(
  events: readonly Event[],
  event: Event,
  positions: ReadonlyMap<string, number>,
): PlacedCompaction {
  const compaction = event.actions.compaction as EventCompaction;
  const { startEventId, endEventId } = compactionRangeIds(event, compaction);
  const first = startEventId !== undefined ? positions.get(startEventId) : undefined;
  const last = endEventId !== undefined ? positions.get(endEventId) : undefined;
  if (typeof first === 'number' && typeof last === 'number' && first <= last) {
    return { event, compaction, byOrder: true, first, last };
  }
  let from = events.length;
  let to = -1;
  for (let index = 0; index < events.length; index++) {
    const timestamp = (events[index] as Event).timestamp;
    if (timestamp < compaction.startTimestamp) continue;
    if (from === events.length) from = index;
    if (timestamp <= compaction.endTimestamp) to = index;
  }
  return { event, compaction, byOrder: false, first: from, last: Math.max(to, from - 1) };
}

function hides(placed: PlacedCompaction, event: Event, index: number): boolean {
  if (placed.byOrder) return index >= placed.first && index <= placed.last;
  const { startTimestamp, endTimestamp } = placed.compaction;
  return event.timestamp >= startTimestamp && event.timestamp <= endTimestamp;
}

/** A compaction is superseded when a later (or wider) one covers its whole range. */
function activeCompactions(placed: readonly PlacedCompaction[]): PlacedCompaction[] {
  return placed.filter((own, index) => {
    return !placed.some((wider, otherIndex) => {
      if (otherIndex === index) return false;
      const contains = wider.first <= own.first && own.last <= wider.last;
      if (!contains) return false;
      const strictlyWider = wider.first < own.first || own.last < wider.last;
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
 * Events a rewind removed ({@link withoutRewoundEvents}) and rewind events themselves are left out
 * first.
 *
 * Context compressors use it to measure what the model would receive; {@link buildContents}
 * renders it. Pure: the input events are never modified.
 */
export function selectHistory(
  allEvents: readonly Event[],
  options: SelectHistoryOptions = {},
): HistoryItem[] {
  const { branch } = options;
  const events = withoutRewoundEvents(allEvents);
  // Common case, in one pass without closures: no compaction and no rejected input among the
  // visible events, so each event stands for itself.
  let plain = true;
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (event.partial || !isVisibleInBranch(event.branch, branch)) continue;
    if (event.actions?.compaction || event.errorCode === INPUT_REJECTED_ERROR_CODE) {
      plain = false;
      break;
    }
  }
  if (plain) {
    const items: HistoryItem[] = [];
    for (let index = 0; index < events.length; index++) {
      const event = events[index]!;
      if (isShownPlainEvent(event, branch)) items.push({ kind: 'event', event });
    }
    return items;
  }
  const positions = new Map<string, number>();
  const placed: PlacedCompaction[] = [];
  for (let index = 0; index < events.length; index++) {
    const event = events[index] as Event;
    positions.set(event.id, index);
  }
  const rejected = new Set<string>();
  for (const event of events) {
    if (event.partial || !isVisibleInBranch(event.branch, branch)) continue;
    if (event.actions?.compaction) placed.push(place(events, event, positions));
    if (event.errorCode === INPUT_REJECTED_ERROR_CODE) rejected.add(event.invocationId);
  }
  const compactions = activeCompactions(placed);
  const pending = [...compactions].sort((a, b) => a.first - b.first);
  const items: HistoryItem[] = [];
  const flushCompactionsUpTo = (position: number): void => {
    while (pending.length > 0 && (pending[0] as PlacedCompaction).first <= position) {
      const next = pending.shift() as PlacedCompaction;
      items.push({ kind: 'compaction', event: next.event, compaction: next.compaction });
    }
  };

  for (let index = 0; index < events.length; index++) {
    const event = events[index] as Event;
    if (event.partial || !isVisibleInBranch(event.branch, branch)) continue;
    if (event.actions?.compaction) continue;
    flushCompactionsUpTo(index);
    if (compactions.some((compaction) => hides(compaction, event, index))) continue;
    if (event.errorCode !== undefined) continue;
    if (event.author === 'user' && rejected.has(event.invocationId)) continue;
    if (!hasMeaningfulContent(event.content)) continue;
    items.push({ kind: 'event', event });
  }
  flushCompactionsUpTo(Number.POSITIVE_INFINITY);
  return items;
}
