import { describe, expect, it } from 'vitest';

import { dot } from '../vector-math';
import { scoreSketch, SKETCH_HEADER_BYTES, toVectorSketch } from './vector-sketch';

/** A small seeded generator (mulberry32), so that a failure is reproducible. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
