import type { Content } from '../content';
import type { Event, EventCompaction } from '../events';
import { compactionRangeIds, selectHistory, type HistoryItem } from '../history/index';
import type { CompactionRequest } from './context-compressor';

function startOf(item: HistoryItem): number {
  return item.kind === 'compaction' ? item.compaction.startTimestamp : item.event.timestamp;
}

function endOf(item: HistoryItem): number {
  return item.kind === 'compaction' ? item.compaction.endTimestamp : item.event.timestamp;
}

function callIds(item: HistoryItem): string[] {
  if (item.kind !== 'event') return [];
  return (item.event.content?.parts ?? []).flatMap((part) =>
    part.functionCall?.id ? [part.functionCall.id] : [],
  );
}

function responseIds(item: HistoryItem): string[] {
  if (item.kind !== 'event') return [];
  return (item.event.content?.parts ?? []).flatMap((part) =>
    part.functionResponse?.id ? [part.functionResponse.id] : [],
  );
}

/** The history the agent currently sees (what a compressor measures). */
export function currentHistory(request: CompactionRequest): HistoryItem[] {
  return selectHistory(request.events, { branch: request.branch });
}

/** Id of the first event an item stands for (`undefined`: a summary written without ids). */
function firstIdOf(item: HistoryItem): string | undefined {
  return item.kind === 'compaction'
    ? compactionRangeIds(item.event, item.compaction).startEventId
    : item.event.id;
}

/** Id of the last event an item stands for (`undefined`: a summary written without ids). */
function lastIdOf(item: HistoryItem): string | undefined {
  return item.kind === 'compaction'
    ? compactionRangeIds(item.event, item.compaction).endEventId
    : item.event.id;
}

/**
 * True when `items[cut]` starts an invocation: a user event (a message, or a function response
 * resuming a paused call) whose invocation is not the one of the item before it. Cutting there
 * keeps whole invocations, so what is kept starts with the user turn that opened it.
 */
function startsInvocation(items: readonly HistoryItem[], cut: number): boolean {
  const item = items[cut];
  if (item?.kind !== 'event' || item.event.author !== 'user') return false;
  const before = items[cut - 1];
  return before?.kind !== 'event' || before.event.invocationId !== item.event.invocationId;
}

/**
 * The largest safe cut at or below `desired` (else the smallest above it): items `[0, cut)` are
 * compacted, the rest kept. A cut
 * is safe when it compacts at least one event (not only an earlier summary), falls on an invocation
 * boundary (the kept items start with the user turn that opened an invocation), and never separates
 * a function call from its response. Compactions record the ids of their first and last events, so
 * the session's event order, not timestamps, decides what they replace: events sharing a
 * millisecond across the cut do not prevent it. Only when an earlier summary written without ids
 * (by another ADK) is compacted again must the kept items be strictly newer than the compacted
 * ones. Returns 0 when no cut is safe.
 */
export function safeCut(items: readonly HistoryItem[], desired: number): number {
  const highest = Math.min(desired, items.length - 1);
  for (let cut = highest; cut >= 1; cut--) if (isSafeCut(items, cut)) return cut;
  // No boundary keeps as much as desired (one invocation holds most of the history): cut at the
  // nearest boundary after it, keeping less but at least the latest invocation's start.
  for (let cut = Math.max(highest + 1, 1); cut < items.length; cut++) {
    if (isSafeCut(items, cut)) return cut;
  }
  return 0;
}

function isSafeCut(items: readonly HistoryItem[], cut: number): boolean {
  if (!startsInvocation(items, cut)) return false;
  const compacted = items.slice(0, cut);
  const kept = items.slice(cut);
  if (!compacted.some((item) => item.kind === 'event')) return false;
  if (!hasIds(compacted)) {
    const lastEnd = Math.max(...compacted.map(endOf));
    if (kept.some((item) => startOf(item) <= lastEnd)) return false;
  }
  const compactedCalls = new Set(compacted.flatMap(callIds));
  const keptCalls = new Set(kept.flatMap(callIds));
  if (kept.some((item) => responseIds(item).some((id) => compactedCalls.has(id)))) return false;
  if (compacted.some((item) => responseIds(item).some((id) => keptCalls.has(id)))) return false;
  return true;
}

/** True when the range of `compacted` can be recorded by event ids. */
function hasIds(compacted: readonly HistoryItem[]): boolean {
  return (
    firstIdOf(compacted[0] as HistoryItem) !== undefined &&
    lastIdOf(compacted[compacted.length - 1] as HistoryItem) !== undefined
  );
}

/**
 * The compaction replacing `compacted` (a prefix of the history) with `summary`: its timestamp
 * range (the official ADKs' format) and, when known, the ids of its first and last events.
 */
export function compactionOf(compacted: readonly HistoryItem[], summary: Content): EventCompaction {
  const compaction: EventCompaction = {
    startTimestamp: Math.min(...compacted.map(startOf)),
    endTimestamp: Math.max(...compacted.map(endOf)),
    compactedContent: summary,
  };
  if (hasIds(compacted)) {
    compaction.startEventId = firstIdOf(compacted[0] as HistoryItem);
    compaction.endEventId = lastIdOf(compacted[compacted.length - 1] as HistoryItem);
  }
  return compaction;
}

/** Number of session events with content inside a compaction's range (for markers). */
export function countCompactedEvents(
  events: readonly Event[],
  compaction: EventCompaction,
): number {
  const first = events.findIndex((event) => event.id === compaction.startEventId);
  const last = events.findIndex((event) => event.id === compaction.endEventId);
  const byOrder = compaction.startEventId !== undefined && first >= 0 && last >= first;
  return events.filter(
    (event, index) =>
      !event.partial &&
      !event.actions?.compaction &&
      event.content !== undefined &&
      (byOrder
        ? index >= first && index <= last
        : event.timestamp >= compaction.startTimestamp &&
          event.timestamp <= compaction.endTimestamp),
  ).length;
}

/** Validate a positive integer option. */
export function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
