import { describe, expect, it } from 'vitest';

import { seeded } from '../../../test/fixtures/vectors';
import { dot } from '../vector-math';
import { scoreSketch, SKETCH_HEADER_BYTES, toVectorSketch } from './vector-sketch';

describe('vector sketch', () => {
  it('bounds the error of every approximate score (seeded random vectors)', () => {
    const random = seeded(33);
    for (let n = 0; n < 500; n++) {
      const dims = 1 + Math.floor(random() * 800);
      const spread = n % 2 === 0 ? 1 : 1e-3;
      const v = Float32Array.from({ length: dims }, () => (random() * 2 - 1) * spread);
      const q = Float32Array.from({ length: dims }, () => random() * 2 - 1);
      const sketch = toVectorSketch(v);
      expect(sketch.byteLength).toBe(SKETCH_HEADER_BYTES + dims);
      const score = scoreSketch(sketch, q, Math.sqrt(dot(q, q)))!;
      expect(Math.abs(dot(v, q) - score.estimate)).toBeLessThanOrEqual(score.bound);
      // Tight enough to be useful: at most half a quantisation step per dimension.
      const step = Math.max(...v.map(Math.abs)) / 127;
      expect(score.bound).toBeLessThanOrEqual(
        (step / 2) * Math.sqrt(dims) * Math.sqrt(dot(q, q)) * (1 + 1e-5),
      );
    }
  });

  it('keeps a zero vector exact and refuses a query of another length', () => {
    const zero = toVectorSketch([0, 0, 0]);
    expect(scoreSketch(zero, Float32Array.from([1, 2, 3]), Math.sqrt(14))).toEqual({
      estimate: 0,
      bound: 0,
    });
    expect(scoreSketch(zero, Float32Array.from([1, 2]), Math.sqrt(5))).toBeUndefined();
  });
});
