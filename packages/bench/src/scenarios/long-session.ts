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
  const last = sizes.longSessionTurns;
  const lateStart = Math.max(0, last - 11);
  // CPU time is read per window (a reading costs a system call), wall time per turn.
  let earlyCpu = 0;
  globalThis.gc?.();
  let windowCpu = cpuNow();
  const start = process.hrtime.bigint();
  for (let i = 0; i < last; i++) {
    if (i === lateStart) windowCpu = cpuNow();
    const turnStart = process.hrtime.bigint();
    await harness.runTurn(
      'long-user',
      'long-session',
      `Turn ${i + 1}: what is the weather in Paris?`,
    );
    samples.push(elapsedMs(turnStart));
    if (i === 9) earlyCpu = cpuMsSince(windowCpu) / 10;
  }
  const lateCpu = cpuMsSince(windowCpu) / (last - lateStart);
  const totalMs = elapsedMs(start);
  assertToolRan(harness.toolCalls, sizes.longSessionTurns, 'long-session');
  await harness.close();
  const early = mean(samples.slice(0, 10));
  const late = mean(samples.slice(lateStart, last));
  return {
    turns1to10Ms: early,
    turns190to200Ms: late,
    growth: late / early,
    cpuGrowth: lateCpu / earlyCpu,
    totalMs,
  };
};
