import { InvalidArgumentError } from '@adk/core';

/** Options of {@link exponentialBackoff}. */
export interface BackoffOptions {
  /** Delay after the first failed attempt, in ms (default 10 s). */
  baseMs?: number;
  /** Upper bound of the delay, in ms (default 1 h). */
  maxMs?: number;
  /**
   * Fraction of the delay taken off at random, 0 to 1 (default 0.2: between 80% and 100% of the
   * exponential delay), so jobs that failed together do not retry together.
   */
  jitter?: number;
}

/** Delay before the next attempt, from the attempt that just failed (1-based). */
export type Backoff = (attempt: number) => number;

/**
 * Exponential backoff with jitter: `min(maxMs, baseMs × 2^(attempt − 1))`, minus up to `jitter` of
 * it at random.
 *
 * @example
 * ```ts
 * const backoff = exponentialBackoff({ baseMs: 1000, maxMs: 60_000 }); // ~1 s, ~2 s, ~4 s...
 * ```
 */
export function exponentialBackoff(
  options: BackoffOptions = {},
  random: () => number = Math.random,
): Backoff {
  const baseMs = options.baseMs ?? 10_000;
  const maxMs = options.maxMs ?? 3_600_000;
  const jitter = options.jitter ?? 0.2;
  if (!(baseMs >= 0) || !(maxMs >= baseMs))
    throw new InvalidArgumentError({
      argument: 'backoff',
      message: 'backoff needs 0 <= baseMs <= maxMs.',
    });
  if (!(jitter >= 0 && jitter <= 1))
    throw new InvalidArgumentError({
      argument: 'jitter',
      message: 'jitter must be between 0 and 1.',
    });
  return (attempt) => {
    const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
    return Math.round(exponential * (1 - jitter * random()));
  };
}
