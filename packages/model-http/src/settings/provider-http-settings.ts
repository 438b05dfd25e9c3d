import type { Dispatcher } from 'undici';

import type { CircuitBreaker, CircuitBreakerOptions } from '../circuit-breaker/circuit-breaker';
import type { RetryOptions } from '../retry/retry-options';

/**
 * Settings every provider factory (`createGemini`, `createAnthropic`, `createOpenAI`) accepts.
 */
export interface ProviderHttpSettings {
  /** API key. Default: the provider's environment variable, read at call time. */
  apiKey?: string;
  /** Base URL of the API (a proxy, a compatible server, a fake server in tests). */
  baseURL?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Extra query parameters sent with every request (e.g. `{ 'api-version': '2024-10-21' }`). */
  query?: Record<string, string>;
  /** Per-attempt response timeout in milliseconds. Default 600 000. */
  timeoutMs?: number;
  /** Longest silence between two stream chunks, in milliseconds. Default 300 000. */
  streamIdleTimeoutMs?: number;
  /** Retries after the first attempt on 408/409/429/5xx and connection errors. Default 2. */
  maxRetries?: number;
  /** Finer retry policy (backoff delays, `onRetry` hook...). `maxRetries` above wins. */
  retry?: RetryOptions;
  /**
   * Per-model circuit breaker: options, a shared {@link CircuitBreaker} instance, or `false` to turn
   * it off. Default: on, 5 consecutive failures open a model's circuit for 30 s.
   */
  circuitBreaker?: CircuitBreaker | CircuitBreakerOptions | false;
  /** undici dispatcher for connection pooling, proxies or mocking. */
  dispatcher?: Dispatcher;
}
