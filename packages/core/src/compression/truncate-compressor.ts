import type { EventCompaction } from '../events';
import type { CompactionRequest, ContextCompressor } from './context-compressor';
import { compactionOf, countCompactedEvents, currentHistory, safeCut } from './plan-compaction';
import { resolveWindow, visibleCount, type EventWindowOptions } from './window-options';

/**
 * Like {@link SlidingWindowCompressor}, but leaves a marker where history was cut, so the model
 * knows earlier conversation existed: `Earlier conversation was truncated (N events omitted).`
 *
 * @example
 * ```ts
 * new TruncateCompressor({ maxEvents: 30, keepEvents: 10 });
 * ```
 */
export class TruncateCompressor implements ContextCompressor {
  readonly name = 'truncate';
  readonly #options: Required<EventWindowOptions>;

  constructor(options: EventWindowOptions) {
    this.#options = resolveWindow(options, 'TruncateCompressor');
  }

  async compact(request: CompactionRequest): Promise<EventCompaction | undefined> {
    const items = currentHistory(request);
    if (visibleCount(items) <= this.#options.maxEvents) return undefined;
    const cut = safeCut(items, items.length - this.#options.keepEvents);
    if (cut === 0) return undefined;
    const range = compactionOf(items.slice(0, cut), { role: 'user', parts: [] });
    const omitted = countCompactedEvents(request.events, range);
    return {
      ...range,
      compactedContent: {
        role: 'user',
        parts: [{ text: `Earlier conversation was truncated (${omitted} events omitted).` }],
      },
    };
  }
}
