import { InvalidArgumentError } from '../errors';
import type { EventCompaction } from '../events';
import type { CompactionRequest, ContextCompressor } from './context-compressor';
import { estimateItemTokens } from './estimate-tokens';
import { compactionOf, currentHistory, isPositiveInteger, safeCut } from './plan-compaction';

/** Options of {@link TokenBudgetCompressor}. */
export interface TokenBudgetOptions {
  /** Compact when the estimated history exceeds this many tokens (characters / 4). */
  maxTokens: number;
  /** Token budget of the history kept after compacting; default `maxTokens`. */
  keepTokens?: number;
  /** Keep at least this many recent messages even when they exceed the budget; default 1. */
  minKeepEvents?: number;
}

/**
 * Keeps the most recent messages that fit in a token budget (estimated as characters / 4, see
 * {@link estimateTokens}) and drops older ones, filling the budget greedily from the newest
 * message backwards.
 *
 * @example
 * ```ts
 * new TokenBudgetCompressor({ maxTokens: 8000, keepTokens: 4000 });
 * ```
 */
export class TokenBudgetCompressor implements ContextCompressor {
  readonly name = 'token-budget';
  readonly #maxTokens: number;
  readonly #keepTokens: number;
  readonly #minKeepEvents: number;

  constructor(options: TokenBudgetOptions) {
    const keepTokens = options.keepTokens ?? options.maxTokens;
    const minKeepEvents = options.minKeepEvents ?? 1;
    if (!isPositiveInteger(options.maxTokens)) {
      throw new InvalidArgumentError({
        message: 'TokenBudgetCompressor: maxTokens must be a positive integer.',
        argument: 'maxTokens',
      });
    }
    if (!isPositiveInteger(keepTokens) || keepTokens > options.maxTokens) {
      throw new InvalidArgumentError({
        message:
          'TokenBudgetCompressor: keepTokens must be a positive integer no larger than maxTokens.',
        argument: 'keepTokens',
      });
    }
    if (!isPositiveInteger(minKeepEvents)) {
      throw new InvalidArgumentError({
        message: 'TokenBudgetCompressor: minKeepEvents must be a positive integer.',
        argument: 'minKeepEvents',
      });
    }
    this.#maxTokens = options.maxTokens;
    this.#keepTokens = keepTokens;
    this.#minKeepEvents = minKeepEvents;
  }

  async compact(request: CompactionRequest): Promise<EventCompaction | undefined> {
    const items = currentHistory(request);
    const costs = items.map(estimateItemTokens);
    const total = costs.reduce((sum, cost) => sum + cost, 0);
    if (total <= this.#maxTokens) return undefined;
    let kept = 0;
    let budget = 0;
    for (let index = items.length - 1; index >= 0; index--) {
      const cost = costs[index] as number;
      if (kept >= this.#minKeepEvents && budget + cost > this.#keepTokens) break;
      budget += cost;
      kept++;
    }
    const cut = safeCut(items, items.length - kept);
    if (cut === 0) return undefined;
    return compactionOf(items.slice(0, cut), { role: 'user', parts: [] });
  }
}
