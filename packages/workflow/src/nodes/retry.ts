/** Per-node retry policy. Attempts are counted from 1; `maxAttempts: 1` means no retry. */
export interface RetryOptions {
  /** Total attempts, the first included. Default 1. */
  maxAttempts?: number;
  /** Delay before the first retry. Default 100 ms. */
  initialDelayMs?: number;
  /** Factor applied to the delay after each retry. Default 2. */
  backoffMultiplier?: number;
  /** Upper bound of the delay. Default 10 s. */
  maxDelayMs?: number;
  /** Which errors are retried (default: every error). */
  retryOn?: (error: unknown) => boolean;
}

/** The delay before attempt `attempt + 1` (attempt counted from 1). */
export function retryDelay(retry: RetryOptions, attempt: number): number {
  const initial = retry.initialDelayMs ?? 100;
  const factor = retry.backoffMultiplier ?? 2;
  const max = retry.maxDelayMs ?? 10_000;
  return Math.min(max, initial * factor ** (attempt - 1));
}
