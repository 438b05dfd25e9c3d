export { backoffDelay } from './backoff';
export { isRetryableStatus } from './is-retryable-status';
export { parseRetryAfter } from './retry-after';
export type { ResolvedRetryOptions, RetryEvent, RetryOptions } from './retry-options';
export { sleep } from './sleep';
