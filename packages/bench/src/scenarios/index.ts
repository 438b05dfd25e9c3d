import { concurrent } from './concurrent';
import { idleHeap } from './idle-heap';
import { longSession } from './long-session';
import type { Scenario } from './scenario';
import { turnLatency } from './turn-latency';

export type { Metrics, Scenario, ScenarioSizes } from './scenario';
export { FULL_SIZES, QUICK_SIZES } from './scenario';
export { warmUp } from './warmup';

/** The in-memory scenarios, in the order a worker runs them. */
export const SCENARIOS = {
  turnLatency,
  longSession,
  concurrent,
  idleHeap,
} as const satisfies Record<string, Scenario>;

/** Name of one in-memory scenario. */
export type ScenarioName = keyof typeof SCENARIOS;
