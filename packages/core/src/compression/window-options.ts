import { InvalidArgumentError } from '../errors';
import type { HistoryItem } from '../history/index';
import { isPositiveInteger } from './plan-compaction';

/** Options shared by the count-based compressors. */
export interface EventWindowOptions {
  /** Compact when the agent sees more than this many messages (events or summaries). */
  maxEvents: number;
  /**
   * How many of the most recent messages to keep when compacting; default `maxEvents`. A smaller
   * value compacts less often: history grows back to `maxEvents` before the next compaction.
   */
  keepEvents?: number;
}

/** Validated window options. */
export function resolveWindow(
  options: EventWindowOptions,
  compressor: string,
): Required<EventWindowOptions> {
  const keepEvents = options.keepEvents ?? options.maxEvents;
  if (!isPositiveInteger(options.maxEvents)) {
    throw new InvalidArgumentError({
      message: `${compressor}: maxEvents must be a positive integer.`,
      argument: 'maxEvents',
    });
  }
  if (!isPositiveInteger(keepEvents) || keepEvents > options.maxEvents) {
    throw new InvalidArgumentError({
      message: `${compressor}: keepEvents must be a positive integer no larger than maxEvents.`,
      argument: 'keepEvents',
    });
  }
  return { maxEvents: options.maxEvents, keepEvents };
}

/** Messages the model would see: events and summaries that carry text (not silent compactions). */
export function visibleCount(items: readonly HistoryItem[]): number {
  return items.filter(
    (item) => item.kind === 'event' || item.compaction.compactedContent.parts.length > 0,
  ).length;
}
