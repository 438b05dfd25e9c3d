import { describe, expect, it } from 'vitest';

import type { Collected } from './in-memory-rows';
import { inMemoryRows } from './in-memory-rows';
import { goalMet, ratioOf } from './row';
import { renderTable } from './table';

describe('results table', () => {
  const collected: Collected = {
    'adk-ts': {
      turnLatency: [
        { p50Ms: 0.05, p99Ms: 0.2 },
        { p50Ms: 0.07, p99Ms: 0.3 },
        { p50Ms: 0.06, p99Ms: 0.1 },
      ],
    },
    'google-adk': { turnLatency: [{ p50Ms: 0.4, p99Ms: 2 }] },
  };

  it('quotes medians of the runs and the ratio ours ÷ theirs against the goal', () => {
    const p50 = inMemoryRows(collected).find((row) => row.label.endsWith('p50'))!;
    expect(p50.ours).toBe(0.06);
    expect(p50.theirs).toBe(0.4);
    expect(ratioOf(p50)).toBeCloseTo(0.15);
    expect(goalMet(p50)).toBe(true);
    expect(goalMet({ ...p50, ours: 0.1 })).toBe(false);
  });

  it('marks missing figures n/a instead of inventing a ratio', () => {
    const growth = inMemoryRows(collected).find((row) => row.label.includes('growth'))!;
    expect(growth.ours).toBeUndefined();
    expect(goalMet(growth)).toBeUndefined();
    const table = renderTable([growth]);
    expect(table).toContain('| n/a');
    expect(table.split('\n')).toHaveLength(3);
  });

  it('checks goals on throughput rows in the other direction', () => {
    const row = {
      label: 'x',
      unit: 'turns/s',
      ours: 12_000,
      theirs: 2_000,
      better: 'higher' as const,
    };
    expect(goalMet({ ...row, goal: { subject: 'ratio', op: '>=', target: 5 } })).toBe(true);
    expect(goalMet({ ...row, ours: 9_000, goal: { subject: 'ratio', op: '>=', target: 5 } })).toBe(
      false,
    );
  });
});
