import { InvalidArgumentError } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { exponentialBackoff } from './backoff';

describe('exponentialBackoff', () => {
  it('doubles from baseMs up to maxMs without jitter', () => {
    const backoff = exponentialBackoff({ baseMs: 1000, maxMs: 10_000, jitter: 0 });
    expect([1, 2, 3, 4, 5, 6].map(backoff)).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });

  it('takes up to jitter of the delay off at random', () => {
    const low = exponentialBackoff({ baseMs: 1000, jitter: 0.5 }, () => 0.999_999);
    const high = exponentialBackoff({ baseMs: 1000, jitter: 0.5 }, () => 0);
    expect(low(3)).toBe(2000);
    expect(high(3)).toBe(4000);
  });

  it('refuses impossible settings', () => {
    expect(() => exponentialBackoff({ baseMs: 10, maxMs: 1 })).toThrow(InvalidArgumentError);
    expect(() => exponentialBackoff({ jitter: 2 })).toThrow(InvalidArgumentError);
  });
});
