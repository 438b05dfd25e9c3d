import { cpuMsSince, cpuNow, elapsedMs, mean } from '../stats';
import type { Scenario } from './scenario';
import { assertToolRan } from './scenario';

/**
 * Scenario 2: one session driven for `longSessionTurns` turns. Compares the mean cost of turns 1-10
 * with turns 190-200 (1-based, inclusive): a framework that copies or rescans the whole history on
 * every turn gets slower as the conversation grows.
 */
export const longSession: Scenario = async (factory, sizes) => {
  const harness = await factory();
  await harness.createSession('long-user', 'long-session');
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  globalThis.gc?.();
  const start = process.hrtime.bigint();
  for (let i = 0; i < sizes.longSessionTurns; i++) {
    const turnStart = process.hrtime.bigint();
    const turnCpu = cpuNow();
    await harness.runTurn(
      'long-user',
      'long-session',
      `Turn ${i + 1}: what is the weather in Paris?`,
    );
    samples.push(elapsedMs(turnStart));
    cpuSamples.push(cpuMsSince(turnCpu));
  }
  const totalMs = elapsedMs(start);
  assertToolRan(harness.toolCalls, sizes.longSessionTurns, 'long-session');
  await harness.close();
  const last = sizes.longSessionTurns;
  const early = mean(samples.slice(0, 10));
  const late = mean(samples.slice(Math.max(0, last - 11), last));
  const earlyCpu = mean(cpuSamples.slice(0, 10));
  const lateCpu = mean(cpuSamples.slice(Math.max(0, last - 11), last));
  return {
    turns1to10Ms: early,
    turns190to200Ms: late,
    growth: late / early,
    cpuGrowth: lateCpu / earlyCpu,
    totalMs,
  };
};
