/**
 * The HTTP layer shared by ADK model providers: undici transport with timeouts, abort, retries
 * and backoff, typed errors, a per-model circuit breaker, an SSE parser and stream helpers.
 */
export * from './circuit-breaker';
export * from './client';
export * from './errors';
export * from './json-lines';
export * from './json-text';
export * from './provider';
export * from './retry';
export * from './settings';
export * from './sse';
