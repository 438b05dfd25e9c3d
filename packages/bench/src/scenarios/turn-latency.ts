import { cpuMsSince, cpuNow, elapsedMs, mean, quantile } from '../stats';
import type { Scenario } from './scenario';
import { assertToolRan, collectThenSettle } from './scenario';

/**
 * Scenario 1: latency of one turn on a fresh session. Each measured turn gets a session created just
 * before it (not timed); the timer covers the whole `run` until its last event. The window starts
 * after a forced collection and a few settling turns ({@link collectThenSettle}).
 */
export const turnLatency: Scenario = async (factory, sizes) => {
  const harness = await factory();
  const samples: number[] = [];
  const settleCalls = await collectThenSettle(harness, 'latency');
  const cpuStart = cpuNow();
  for (let i = 0; i < sizes.latencyTurns; i++) {
    const sessionId = `latency-${i}`;
    await harness.createSession('latency-user', sessionId);
    const start = process.hrtime.bigint();
    await harness.runTurn('latency-user', sessionId, 'What is the weather in Paris?');
    samples.push(elapsedMs(start));
  }
  const cpuMs = cpuMsSince(cpuStart);
  assertToolRan(harness.toolCalls - settleCalls, sizes.latencyTurns, 'turn-latency');
  await harness.close();
  return {
    p50Ms: quantile(samples, 0.5),
    p95Ms: quantile(samples, 0.95),
    p99Ms: quantile(samples, 0.99),
    meanMs: mean(samples),
    // CPU per turn includes the untimed session creation; it is steadier than wall time on a busy machine.
    cpuPerTurnMs: cpuMs / sizes.latencyTurns,
  };
};
