/**
 * Status-based retry decision: 408 (timeout), 409 (conflict/lock), 429 (rate limit) and every 5xx
 * (529 is Anthropic's "overloaded") are retryable. `x-should-retry` overrides it when present.
 */
export function isRetryableStatus(
  status: number,
  headers: Record<string, string | string[] | undefined> = {},
): boolean {
  const override = headers['x-should-retry'];
  const value = Array.isArray(override) ? override[0] : override;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
