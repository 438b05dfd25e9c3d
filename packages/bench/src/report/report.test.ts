import { describe, expect, it } from 'vitest';

import type { Collected } from './in-memory-rows';
import { inMemoryRows } from './in-memory-rows';
import { contractFloorRatioOf, floorGoalMet, floorRatioOf, goalMet, ratioOf } from './row';
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

  it('quotes the ideal floor and ours ÷ floor against the floor goal', () => {
    const withFloor: Collected = {
      ...collected,
      floor: { turnLatency: [{ p50Ms: 0.02 }, { p50Ms: 0.03 }, { p50Ms: 0.025 }] },
    };
    const p50 = inMemoryRows(withFloor).find((row) => row.label.endsWith('p50'))!;
    expect(p50.floor).toBe(0.025);
    expect(floorRatioOf(p50)).toBeCloseTo(2.4);
    expect(floorGoalMet(p50)).toBe(true);
    expect(floorGoalMet({ ...p50, ours: 0.07 })).toBe(false);
    expect(renderTable([p50])).toContain('| 2.4x ');
    expect(renderTable([p50])).toMatch(/\| n\/a +\| n\/a +\|$/);
    const noFloor = inMemoryRows(collected).find((row) => row.label.endsWith('p50'))!;
    expect(noFloor.floor).toBeUndefined();
    expect(floorGoalMet(noFloor)).toBeUndefined();
  });

  it('quotes the contract floor and ours ÷ contract floor beside the ideal floor', () => {
    const withFloors: Collected = {
      ...collected,
      floor: { turnLatency: [{ p50Ms: 0.01 }] },
      'contract-floor': { turnLatency: [{ p50Ms: 0.04 }, { p50Ms: 0.02 }, { p50Ms: 0.03 }] },
    };
    const p50 = inMemoryRows(withFloors).find((row) => row.label.endsWith('p50'))!;
    expect(p50.contractFloor).toBe(0.03);
    expect(contractFloorRatioOf(p50)).toBeCloseTo(2);
    expect(p50.samples?.contractFloor).toEqual([40, 20, 30].map((v) => v / 1000));
    expect(renderTable([p50])).toMatch(/\| 0\.03 +\| 2x +\|$/);
  });

  it('writes a goal on our own figure in the row unit', () => {
    const heap = inMemoryRows(collected).find((row) => row.label.includes('just after'))!;
    expect(renderTable([{ ...heap, ours: 2 }])).toContain('ours ≤ 2.6 MB');
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
