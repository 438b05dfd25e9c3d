import type { FrameworkHarness, HarnessFactory } from '../frameworks/framework';

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

/**
 * Turns run on the measured harness, after the forced collection and before the clock starts (see
 * {@link collectThenSettle}).
 */
export const SETTLE_TURNS = 300;

/** The least time the settling turns take, whatever their number (see {@link collectThenSettle}). */
export const SETTLE_MS = Number(process.env.ADK_BENCH_SETTLE_MS ?? 1_000);

/**
 * Start a timed window from a clean heap and the framework's steady state. Two things would
 * otherwise be timed that a server never pays. The forced collection (`gc()`, V8's "testing" GC)
 * frees the object shapes (maps) that only a turn's short-lived objects use, and every optimized
 * function that checked for one of them is deoptimized: measured with `--trace-deopt`, 20-30 of
 * ours after each such collection, 42-88 recompilations in the next 1,000 turns, and slow turns
 * while they ran unoptimized (a collection that happens by itself keeps recently used maps and
 * deoptimized nothing in the same test). And a warm-up counted in turns ends while V8's compiler
 * threads are still optimizing a framework's larger functions. So after collecting, run at least
 * {@link SETTLE_TURNS} turns for at least {@link SETTLE_MS} on the harness that will be measured,
 * each on a session created for it and deleted after it (so the store holds what it held
 * before). Returns the tool calls made, for the scenario's check of its own turns.
 */
export async function collectThenSettle(
  harness: FrameworkHarness,
  prefix: string,
): Promise<number> {
  globalThis.gc?.();
  const before = harness.toolCalls;
  const start = performance.now();
  for (let i = 0; i < SETTLE_TURNS || performance.now() - start < SETTLE_MS; i++) {
    const sessionId = `${prefix}-settle-${i}`;
    await harness.createSession('settle-user', sessionId);
    await harness.runTurn('settle-user', sessionId, 'What is the weather in Paris?');
    await harness.deleteSession('settle-user', sessionId);
  }
  return harness.toolCalls - before;
}

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
