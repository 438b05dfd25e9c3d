import type { EventCompaction } from '../events';
import type { CompactionRequest, ContextCompressor } from './context-compressor';
import { compactionOf, currentHistory, safeCut } from './plan-compaction';
import { resolveWindow, visibleCount, type EventWindowOptions } from './window-options';

/**
 * Keeps the most recent messages and silently drops older ones once the agent sees more than
 * `maxEvents`. The drop is recorded as a compaction with an empty summary, so the model sees no
 * trace of the older history. A function call and its response are never separated.
 *
 * @example
 * ```ts
 * new SlidingWindowCompressor({ maxEvents: 40, keepEvents: 20 });
 * ```
 */
export class SlidingWindowCompressor implements ContextCompressor {
  readonly name = 'sliding-window';
  readonly #options: Required<EventWindowOptions>;

  constructor(options: EventWindowOptions) {
    this.#options = resolveWindow(options, 'SlidingWindowCompressor');
  }

  async compact(request: CompactionRequest): Promise<EventCompaction | undefined> {
    const items = currentHistory(request);
    if (visibleCount(items) <= this.#options.maxEvents) return undefined;
    const cut = safeCut(items, items.length - this.#options.keepEvents);
    if (cut === 0) return undefined;
    return compactionOf(items.slice(0, cut), { role: 'user', parts: [] });
  }
}
