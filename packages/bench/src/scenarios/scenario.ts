import type { HarnessFactory } from '../frameworks/framework';

/** Sizes of the scenarios; `--quick` shrinks them. */
export interface ScenarioSizes {
  /** Warm-up turns on fresh sessions before any measurement. */
  warmupTurns: number;
  /** Measured turns of the fresh-session latency scenario. */
  latencyTurns: number;
  /** Turns of the long-session scenario. */
  longSessionTurns: number;
  /** Sessions in flight in the concurrency scenario. */
  concurrentSessions: number;
  /** Turns per session in the concurrency scenario. */
  turnsPerConcurrentSession: number;
  /**
   * Idle sessions created by the heap scenario (figures are per 1,000: more sessions spread what
   * a process allocates once, such as code compiled by the JIT during the turns, more thinly).
   */
  idleSessions: number;
}

/** Full-size settings: the figures quoted in docs/PERFORMANCE.md. */
export const FULL_SIZES: ScenarioSizes = {
  warmupTurns: 500,
  latencyTurns: 1000,
  longSessionTurns: 200,
  concurrentSessions: 1000,
  turnsPerConcurrentSession: 5,
  idleSessions: 10_000,
};

/** `--quick`: the same shapes with fewer iterations, for a fast sanity check. */
export const QUICK_SIZES: ScenarioSizes = {
  warmupTurns: 200,
  latencyTurns: 300,
  longSessionTurns: 200,
  concurrentSessions: 1000,
  turnsPerConcurrentSession: 5,
  idleSessions: 2_000,
};

/** Named metrics one scenario measured for one framework in one run. */
export type Metrics = Record<string, number>;

/** A scenario: builds its own harness(es) from the factory and returns its metrics. */
export type Scenario = (factory: HarnessFactory, sizes: ScenarioSizes) => Promise<Metrics>;

/** Throw when the tool did not run once per turn: the scripted behaviour must really have happened. */
export function assertToolRan(toolCalls: number, turns: number, scenario: string): void {
  if (toolCalls !== turns) {
    throw new Error(`${scenario}: expected ${turns} tool calls, saw ${toolCalls}`);
  }
}
