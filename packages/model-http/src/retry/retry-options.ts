/** Information passed to {@link RetryOptions.onRetry} before each retry. */
export interface RetryEvent {
  /** 1 for the first retry, 2 for the second, ... */
  attempt: number;
  /** How long the client waits before retrying, in milliseconds. */
  delayMs: number;
  /** Where the delay came from: the server's `Retry-After`, or exponential backoff. */
  delaySource: 'retry-after' | 'backoff';
  /** The error that triggered the retry. */
  error: unknown;
  model: string;
}

/**
 * Retry policy of the HTTP layer. Retryable failures are HTTP 408, 409, 429 and 5xx (including
 * Anthropic's 529), connection errors and timeouts before any response byte arrived. A provider's
 * `x-should-retry: true|false` header overrides the status-based decision. Streams are never
 * retried once they started.
 */
export interface RetryOptions {
  /** Retries after the first attempt. Default 2 (three attempts in all). 0 disables retries. */
  maxRetries?: number;
  /** First backoff delay. Default 500 ms; doubled each retry. */
  initialDelayMs?: number;
  /** Cap on one backoff delay. Default 8 000 ms. */
  maxDelayMs?: number;
  /**
   * Longest `Retry-After` the client accepts to wait. When the server asks for longer, the error
   * is thrown at once (it stays `retryable`). Default 60 000 ms.
   */
  maxRetryAfterMs?: number;
  /** Called before each retry, e.g. for logging. */
  onRetry?: (event: RetryEvent) => void;
  /** Source of randomness for the jitter, in [0, 1). Default `Math.random`. */
  random?: () => number;
  /**
   * How to wait; resolves after `ms` or rejects with the signal's reason. Default: a timer.
   * Tests and simulations can replace it.
   */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** {@link RetryOptions} with defaults applied. */
export type ResolvedRetryOptions = Required<Omit<RetryOptions, 'onRetry'>> &
  Pick<RetryOptions, 'onRetry'>;
