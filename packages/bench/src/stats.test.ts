import { describe, expect, it } from 'vitest';

import { mean, median, quantile } from './stats';

describe('stats', () => {
  it('interpolates quantiles between the two nearest samples', () => {
    expect(quantile([4, 1, 3, 2], 0.5)).toBe(2.5);
    expect(quantile([10, 20, 30, 40, 50], 0.99)).toBeCloseTo(49.6);
    expect(quantile([7], 0.99)).toBe(7);
  });

  it('returns NaN for empty input and never reorders the input', () => {
    const values = [3, 1, 2];
    expect(median(values)).toBe(2);
    expect(values).toEqual([3, 1, 2]);
    expect(median([])).toBeNaN();
    expect(mean([])).toBeNaN();
    expect(mean([1, 2, 6])).toBe(3);
  });
});
