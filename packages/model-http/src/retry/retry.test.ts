import { describe, expect, it } from 'vitest';

import { backoffDelay } from './backoff';
import { isRetryableStatus } from './is-retryable-status';
import { parseRetryAfter } from './retry-after';
import { sleep } from './sleep';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delta-seconds, fractional seconds and retry-after-ms', () => {
    expect(parseRetryAfter({ 'retry-after': '3' }, now)).toBe(3000);
    expect(parseRetryAfter({ 'retry-after': '1.5' }, now)).toBe(1500);
    expect(parseRetryAfter({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
  });

  it('reads an HTTP date, and a past date as 0', () => {
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now)).toBe(7000);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter({}, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '-1' }, now)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  const base = { initialDelayMs: 100, maxDelayMs: 1000 };

  it('doubles per attempt, with jitter between half and all of the step, capped', () => {
    expect(backoffDelay(1, { ...base, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, { ...base, random: () => 0.999999 })).toBe(100);
    expect(backoffDelay(3, { ...base, random: () => 0.999999 })).toBe(400);
    expect(backoffDelay(10, { ...base, random: () => 0.999999 })).toBe(1000);
    expect(backoffDelay(10, { ...base, random: () => 0 })).toBe(500);
  });
});

describe('isRetryableStatus', () => {
  it('retries 408, 409, 429 and 5xx only, unless x-should-retry says otherwise', () => {
    expect(
      [400, 401, 403, 404, 408, 409, 422, 429, 500, 503, 529].map((s) => isRetryableStatus(s)),
    ).toEqual([false, false, false, false, true, true, false, true, true, true, true]);
    expect(isRetryableStatus(503, { 'x-should-retry': 'false' })).toBe(false);
    expect(isRetryableStatus(400, { 'x-should-retry': 'true' })).toBe(true);
  });
});

describe('sleep', () => {
  it('rejects with the signal reason when aborted', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });
});
