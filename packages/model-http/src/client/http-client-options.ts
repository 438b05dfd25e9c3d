import type { Dispatcher } from 'undici';

import type { CircuitBreaker } from '../circuit-breaker/circuit-breaker';
import type { RetryOptions } from '../retry/retry-options';

/** What a provider's error JSON says, in neutral terms. */
export interface ProviderErrorInfo {
  /** Human-readable message from the provider. */
  message?: string;
  /** Provider error type or status, e.g. `RESOURCE_EXHAUSTED`, `rate_limit_error`. */
  type?: string;
  /** A retry delay stated in the body (Gemini's `RetryInfo.retryDelay`); `Retry-After` wins. */
  retryAfterMs?: number;
}

/** Settings of an {@link HttpClient}; provider factories build one from their own settings. */
export interface HttpClientOptions {
  /** Provider id used in errors and as part of nothing else, e.g. `gemini`. */
  provider: string;
  /** Base URL every request path is appended to, e.g. `https://api.openai.com/v1`. */
  baseURL: string;
  /** Query parameters sent with every request (e.g. Azure's `api-version`). */
  query?: Record<string, string>;
  /** Headers sent with every request (undefined values are skipped). */
  headers?: Record<string, string | undefined>;
  /**
   * Per-attempt limit, in milliseconds, on waiting for the response: its headers, and for
   * non-streaming calls the whole body. Default 600 000 (10 minutes, like the official SDKs).
   */
  timeoutMs?: number;
  /** Longest silence allowed between two chunks of a stream. Default 300 000 ms. */
  streamIdleTimeoutMs?: number;
  /** Retry policy (see {@link RetryOptions}). */
  retry?: RetryOptions;
  /** Per-model circuit breaker; undefined turns it off. */
  circuitBreaker?: CircuitBreaker;
  /** undici dispatcher (an `Agent`, `ProxyAgent`, `MockAgent`...). Default: undici's global one. */
  dispatcher?: Dispatcher;
  /** Extracts message and type from a provider error body. Default: understands `{error:{message,type|status}}`. */
  parseErrorBody?: (body: unknown) => ProviderErrorInfo | undefined;
}

/** One call of an {@link HttpClient}. */
export interface HttpCall {
  /** Model the call is for: the circuit breaker key and the context of errors. */
  model: string;
  /** Path appended to the base URL, e.g. `/chat/completions`. */
  path: string;
  /** Query parameters. */
  query?: Record<string, string> | undefined;
  /** JSON request body (not sent with `GET` or `DELETE`). */
  body: unknown;
  /** HTTP method; default `POST`. A resource API (Gemini's `cachedContents`) also needs the others. */
  method?: 'POST' | 'GET' | 'DELETE' | 'PATCH' | undefined;
  /** Per-call headers (API key...), merged over the client's headers. */
  headers?: Record<string, string | undefined> | undefined;
  /** Aborting it cancels the request (and the socket) and throws the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** A streamed response whose status was 2xx. */
export interface HttpStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /**
   * The body bytes. Iterate it once. Breaking out of the loop closes the connection. Errors:
   * the abort signal's reason, `ModelTimeoutError` (idle) or `ModelStreamError` (`interrupted`).
   */
  body: AsyncIterable<Uint8Array>;
}

/** A JSON response whose status was 2xx. */
export interface HttpJsonResponse<T> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  data: T;
}
