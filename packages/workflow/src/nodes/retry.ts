/**
 * Per-node retry policy, with the Python ADK's `RetryConfig` defaults: giving a policy turns
 * retry on (5 attempts in all unless `maxAttempts` says otherwise), the delay starts at 1 s,
 * doubles after each attempt up to 60 s, and is spread by a jitter of ±100 %. Attempts are
 * counted from 1; `maxAttempts: 1` means no retry. A node without `retry` never retries.
 */
export interface RetryOptions {
  /** Total attempts, the first included. Default 5 (Python's `max_attempts`); 0 or 1: no retry. */
  maxAttempts?: number;
  /** Delay before the first retry. Default 1000 ms (Python's `initial_delay`, 1.0 s). */
  initialDelayMs?: number;
  /** Factor applied to the delay after each retry. Default 2 (Python's `backoff_factor`). */
  backoffMultiplier?: number;
  /** Upper bound of the delay before jitter. Default 60 s (Python's `max_delay`). */
  maxDelayMs?: number;
  /**
   * Randomness of the delay, as a fraction of it: the delay is drawn uniformly from
   * `[delay × (1 − jitter), delay × (1 + jitter)]` (never below 0). Default 1 (Python's
   * `jitter`); 0 gives exact delays.
   */
  jitter?: number;
  /**
   * Names of the errors that are retried (`error.name`, as Python's `exceptions` lists class
   * names); others fail at once. Default: every error.
   */
  errorNames?: readonly string[];
  /** Which errors are retried, checked after {@link errorNames} (default: every error). */
  retryOn?: (error: unknown) => boolean;
}

/** Attempts in all when a policy does not say (Python's default). */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** Total attempts allowed by `retry` (1 without a policy). */
export function maxAttemptsOf(retry: RetryOptions | undefined): number {
  if (!retry) return 1;
  return Math.max(1, retry.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
}

/** True when `retry` lets `error` be retried (by name, then by `retryOn`). */
export function retriesError(retry: RetryOptions | undefined, error: unknown): boolean {
  if (!retry) return false;
  if (retry.errorNames !== undefined) {
    const name = error instanceof Error ? error.name : undefined;
    if (name === undefined || !retry.errorNames.includes(name)) return false;
  }
  return retry.retryOn?.(error) ?? true;
}

/**
 * The delay in ms before attempt `attempt + 1` (attempt counted from 1): `initialDelayMs ×
 * backoffMultiplier^(attempt − 1)`, capped at `maxDelayMs`, then spread by `jitter`. `random`
 * (default `Math.random`) returns a number in [0, 1).
 *
 * @example
 * ```ts
 * retryDelay({ initialDelayMs: 100, jitter: 0 }, 3); // 400
 * ```
 */
export function retryDelay(
  retry: RetryOptions,
  attempt: number,
  random: () => number = Math.random,
): number {
  const initial = retry.initialDelayMs ?? 1000;
  const factor = retry.backoffMultiplier ?? 2;
  const max = retry.maxDelayMs ?? 60_000;
  const jitter = retry.jitter ?? 1;
  const delay = Math.min(max, initial * factor ** Math.max(0, attempt - 1));
  if (jitter <= 0) return delay;
  return Math.max(0, delay + (random() * 2 - 1) * jitter * delay);
}
