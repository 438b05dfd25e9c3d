import type { FrameworkId } from '../frameworks/framework';
import type { Metrics, ScenarioName } from '../scenarios';
import { median } from '../stats';
import type { BenchRow, FloorGoal, Goal } from './row';

/** Every run's metrics, per framework and scenario (a framework that did not run may be absent). */
export type Collected = Partial<Record<FrameworkId, Partial<Record<ScenarioName, Metrics[]>>>>;

interface RowSpec {
  label: string;
  unit: string;
  scenario: ScenarioName;
  metric: string;
  better: 'lower' | 'higher';
  scale?: number;
  goal?: Goal;
  floorGoal?: FloorGoal;
}

const MB = 1 / (1024 * 1024);

const SPECS: readonly RowSpec[] = [
  {
    label: 'Turn latency, fresh session, p50',
    unit: 'ms',
    scenario: 'turnLatency',
    metric: 'p50Ms',
    better: 'lower',
    goal: { subject: 'ratio', op: '<=', target: 0.2 },
    floorGoal: { op: '<=', target: 2.5 },
  },
  {
    label: 'Turn latency, fresh session, p95',
    unit: 'ms',
    scenario: 'turnLatency',
    metric: 'p95Ms',
    better: 'lower',
    floorGoal: { op: '<=', target: 3 },
  },
  {
    label: 'Turn latency, fresh session, p99',
    unit: 'ms',
    scenario: 'turnLatency',
    metric: 'p99Ms',
    better: 'lower',
  },
  {
    label: 'Turn CPU time, fresh session, mean',
    unit: 'ms',
    scenario: 'turnLatency',
    metric: 'cpuPerTurnMs',
    better: 'lower',
  },
  {
    label: '200-turn session, turns 1-10',
    unit: 'ms/turn',
    scenario: 'longSession',
    metric: 'turns1to10Ms',
    better: 'lower',
  },
  {
    label: '200-turn session, turns 190-200',
    unit: 'ms/turn',
    scenario: 'longSession',
    metric: 'turns190to200Ms',
    better: 'lower',
  },
  {
    label: '200-turn session, growth (190-200 ÷ 1-10)',
    unit: 'x',
    scenario: 'longSession',
    metric: 'growth',
    better: 'lower',
    goal: { subject: 'ours', op: '<=', target: 2 },
  },
  {
    label: '200-turn session, growth in CPU time',
    unit: 'x',
    scenario: 'longSession',
    metric: 'cpuGrowth',
    better: 'lower',
  },
  {
    label: '1,000 sessions × 5 turns in flight',
    unit: 'turns/s',
    scenario: 'concurrent',
    metric: 'turnsPerSecond',
    better: 'higher',
    goal: { subject: 'ratio', op: '>=', target: 5 },
    floorGoal: { op: '>=', target: 0.6 },
  },
  {
    label: '1,000 sessions × 5 turns, per CPU-second',
    unit: 'turns/s',
    scenario: 'concurrent',
    metric: 'turnsPerCpuSecond',
    better: 'higher',
    floorGoal: { op: '>=', target: 0.6 },
  },
  {
    label: 'Heap per 1,000 idle sessions (1 turn, then 5 s idle)',
    unit: 'MB',
    scenario: 'idleHeap',
    metric: 'idleBytesPer1000',
    better: 'lower',
    scale: MB,
    goal: { subject: 'ratio', op: '<=', target: 0.25 },
  },
  {
    label: 'Heap per 1,000 sessions just after 1 turn',
    unit: 'MB',
    scenario: 'idleHeap',
    metric: 'oneTurnBytesPer1000',
    better: 'lower',
    scale: MB,
    goal: { subject: 'ours', op: '<=', target: 2.6 },
  },
  {
    label: 'Heap per 1,000 idle sessions (empty)',
    unit: 'MB',
    scenario: 'idleHeap',
    metric: 'emptyBytesPer1000',
    better: 'lower',
    scale: MB,
  },
];

function samplesOf(collected: Collected, framework: FrameworkId, spec: RowSpec): number[] {
  const runs = collected[framework]?.[spec.scenario] ?? [];
  return runs
    .map((metrics) => (metrics[spec.metric] ?? Number.NaN) * (spec.scale ?? 1))
    .filter((v) => !Number.isNaN(v));
}

function medianOrUndefined(samples: number[]): number | undefined {
  return samples.length === 0 ? undefined : median(samples);
}

/** The table rows of the in-memory scenarios: medians over the runs of each framework. */
export function inMemoryRows(collected: Collected): BenchRow[] {
  return SPECS.map((spec) => {
    const ours = samplesOf(collected, 'adk-ts', spec);
    const theirs = samplesOf(collected, 'google-adk', spec);
    const floor = samplesOf(collected, 'floor', spec);
    const contractFloor = samplesOf(collected, 'contract-floor', spec);
    const row: BenchRow = {
      label: spec.label,
      unit: spec.unit,
      ours: medianOrUndefined(ours),
      theirs: medianOrUndefined(theirs),
      better: spec.better,
      samples: { ours, theirs, floor, contractFloor },
    };
    if (spec.goal !== undefined) row.goal = spec.goal;
    const floorMedian = medianOrUndefined(floor);
    if (floorMedian !== undefined) row.floor = floorMedian;
    if (spec.floorGoal !== undefined) row.floorGoal = spec.floorGoal;
    const contractFloorMedian = medianOrUndefined(contractFloor);
    if (contractFloorMedian !== undefined) row.contractFloor = contractFloorMedian;
    return row;
  });
}
