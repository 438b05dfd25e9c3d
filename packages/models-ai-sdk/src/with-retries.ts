import type { AdkError } from '@adk/core';
import { backoffDelay, sleep } from '@adk/model-http';

import { toModelError } from './to-model-error';

/** How {@link withRetries} retries, and what it names in its errors. */
export interface RetrySettings {
  /** Retries after the first attempt (rate limits, overload, 5xx, a dropped connection). */
  maxRetries: number;
  initialDelayMs: number;
  maxDelayMs: number;
  provider: string;
  model: string;
  /** Whether the call streams (a failure then reads as a broken stream). */
  streaming: boolean;
  /** Waits between attempts (default: a timer the signal cancels). */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * `call`, retried while it fails with a retryable error before any answer arrived, with backoff
 * and jitter (or the provider's `Retry-After`); the last failure is thrown as one of core's typed
 * model errors. AI SDK models do not retry by themselves: the `ai` package's functions do.
 */
export async function withRetries<T>(
  call: () => PromiseLike<T>,
  signal: AbortSignal | undefined,
  settings: RetrySettings,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const typed: AdkError = toModelError(error, {
        provider: settings.provider,
        model: settings.model,
        streaming: settings.streaming,
        started: false,
      });
      const retryable = (typed as { retryable?: boolean }).retryable === true;
      if (!retryable || attempt >= settings.maxRetries) throw typed;
      const retryAfter = (typed as { retryAfterMs?: number }).retryAfterMs;
      const delay =
        retryAfter ??
        backoffDelay(attempt + 1, {
          initialDelayMs: settings.initialDelayMs,
          maxDelayMs: settings.maxDelayMs,
          random: Math.random,
        });
      await (settings.sleep ?? sleep)(Math.min(delay, settings.maxDelayMs), signal);
    }
  }
}
