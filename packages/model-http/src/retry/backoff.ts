/**
 * Delay before retry number `attempt` (1-based): exponential backoff with "equal jitter", i.e. a
 * random value between half and all of `min(maxDelayMs, initialDelayMs * 2^(attempt-1))`. The jitter
 * keeps many clients that failed together from retrying in lockstep.
 */
export function backoffDelay(
  attempt: number,
  options: { initialDelayMs: number; maxDelayMs: number; random: () => number },
): number {
  const exponential = options.initialDelayMs * 2 ** Math.max(0, attempt - 1);
  const capped = Math.min(options.maxDelayMs, exponential);
  return Math.round(capped / 2 + (capped / 2) * options.random());
}
