import type { Content } from '../content';
import type { Event, EventCompaction } from '../events';
import { selectHistory, type HistoryItem } from '../flow/contents';
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

/**
 * The largest safe cut at or below `desired`: items `[0, cut)` are compacted, the rest kept. A cut
 * is safe when it compacts at least one event (not only an earlier summary), never separates a
 * function call from its response, and the kept items are strictly newer than the compacted ones
 * (compactions are recorded as timestamp ranges). Returns 0 when no cut is safe.
 */
export function safeCut(items: readonly HistoryItem[], desired: number): number {
  for (let cut = Math.min(desired, items.length - 1); cut >= 1; cut--) {
    const compacted = items.slice(0, cut);
    const kept = items.slice(cut);
    if (!compacted.some((item) => item.kind === 'event')) continue;
    const lastEnd = Math.max(...compacted.map(endOf));
    if (kept.some((item) => startOf(item) <= lastEnd)) continue;
    const compactedCalls = new Set(compacted.flatMap(callIds));
    const keptCalls = new Set(kept.flatMap(callIds));
    if (kept.some((item) => responseIds(item).some((id) => compactedCalls.has(id)))) continue;
    if (compacted.some((item) => responseIds(item).some((id) => keptCalls.has(id)))) continue;
    return cut;
  }
  return 0;
}

/** The compaction replacing `compacted` (a prefix of the history) with `summary`. */
export function compactionOf(compacted: readonly HistoryItem[], summary: Content): EventCompaction {
  return {
    startTimestamp: Math.min(...compacted.map(startOf)),
    endTimestamp: Math.max(...compacted.map(endOf)),
    compactedContent: summary,
  };
}

/** Number of session events with content inside a compaction's range (for markers). */
export function countCompactedEvents(
  events: readonly Event[],
  compaction: EventCompaction,
): number {
  return events.filter(
    (event) =>
      !event.partial &&
      !event.actions?.compaction &&
      event.content !== undefined &&
      event.timestamp >= compaction.startTimestamp &&
      event.timestamp <= compaction.endTimestamp,
  ).length;
}

/** Validate a positive integer option. */
export function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
