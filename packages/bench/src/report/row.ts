/** A goal on one row: either on the ratio ours ÷ @google/adk, or on our own figure. */
export interface Goal {
  /** `ratio` compares ours ÷ theirs; `ours` checks our figure alone (e.g. a growth factor). */
  subject: 'ratio' | 'ours';
  op: '<=' | '>=';
  target: number;
}

/**
 * One line of the results table: a metric measured for both frameworks (medians of the runs).
 * `runSessionSqlBench` may return these rows directly.
 */
export interface BenchRow {
  /** What is measured, e.g. `Turn latency, fresh session, p50`. */
  label: string;
  /** Unit of `ours` and `theirs`, e.g. `ms`, `turns/s`, `MB`. */
  unit: string;
  /** Median for ADK for TypeScript; undefined when it could not be measured. */
  ours: number | undefined;
  /** Median for @google/adk 2.0.0; undefined when it could not be measured. */
  theirs: number | undefined;
  /** Whether smaller or larger figures are better. */
  better: 'lower' | 'higher';
  goal?: Goal;
  /** Median of the ideal floor (`frameworks/floor.ts`) measured in the same runs, when it ran. */
  floor?: number;
  /** A goal on ours ÷ floor (issue 29: the framework's own cost per turn). */
  floorGoal?: FloorGoal;
  /**
   * Median of the contract floor (`frameworks/contract-floor.ts`: the ideal floor plus the work
   * core's contracts require of a turn) measured in the same runs, when it ran.
   */
  contractFloor?: number;
  /** Every run's figure, for the JSON results. */
  samples?: { ours: number[]; theirs: number[]; floor?: number[]; contractFloor?: number[] };
}

/** A goal on the ratio ours ÷ ideal floor. */
export interface FloorGoal {
  op: '<=' | '>=';
  target: number;
}

/** ours ÷ floor, or undefined when either side is missing. */
export function floorRatioOf(row: BenchRow): number | undefined {
  if (row.ours === undefined || row.floor === undefined || row.floor === 0) return undefined;
  return row.ours / row.floor;
}

/** ours ÷ contract floor, or undefined when either side is missing. */
export function contractFloorRatioOf(row: BenchRow): number | undefined {
  if (row.ours === undefined || row.contractFloor === undefined || row.contractFloor === 0) {
    return undefined;
  }
  return row.ours / row.contractFloor;
}

/** Whether the row meets its floor goal; undefined without one or without figures. */
export function floorGoalMet(row: BenchRow): boolean | undefined {
  const ratio = floorRatioOf(row);
  if (row.floorGoal === undefined || ratio === undefined || Number.isNaN(ratio)) return undefined;
  return row.floorGoal.op === '<=' ? ratio <= row.floorGoal.target : ratio >= row.floorGoal.target;
}

/** ours ÷ theirs, or undefined when either side is missing. */
export function ratioOf(row: BenchRow): number | undefined {
  if (row.ours === undefined || row.theirs === undefined || row.theirs === 0) return undefined;
  return row.ours / row.theirs;
}

/** Whether the row meets its goal; undefined without a goal or without figures. */
export function goalMet(row: BenchRow): boolean | undefined {
  if (row.goal === undefined) return undefined;
  const value = row.goal.subject === 'ratio' ? ratioOf(row) : row.ours;
  if (value === undefined || Number.isNaN(value)) return undefined;
  return row.goal.op === '<=' ? value <= row.goal.target : value >= row.goal.target;
}

/** The goal as text, e.g. `ratio ≤ 0.2x`, `ours ≤ 2x`, `ours ≤ 2.6 MB` (a goal on our own figure is in `unit`). */
export function goalText(goal: Goal | undefined, unit = 'x'): string {
  if (goal === undefined) return '';
  const op = goal.op === '<=' ? '≤' : '≥';
  if (goal.subject === 'ratio') return `ratio ${op} ${goal.target}x`;
  return unit === 'x' ? `ours ${op} ${goal.target}x` : `ours ${op} ${goal.target} ${unit}`;
}
