import type { FrameworkHarness } from '../frameworks/framework';
import { cpuMsSince, cpuNow, elapsedMs, median } from '../stats';
import type { Scenario } from './scenario';
import { assertToolRan, collectThenSettle } from './scenario';

/** Sessions driven per run; the windows pool their turns. */
const SESSIONS = 2;

interface Windows {
  early: number[];
  late: number[];
  earlyCpu: number[];
  lateCpu: number[];
  /** Tool calls of the settling turns. */
  settleCalls: number;
}

async function driveSession(
  harness: FrameworkHarness,
  sessionId: string,
  turns: number,
): Promise<Windows> {
  await harness.createSession('long-user', sessionId);
  const lateStart = Math.max(0, turns - 11);
  const settleCalls = await collectThenSettle(harness, sessionId);
  const windows: Windows = { early: [], late: [], earlyCpu: [], lateCpu: [], settleCalls };
  for (let i = 0; i < turns; i++) {
    const measured = i < 10 || i >= lateStart;
    // The CPU reading (a system call) is taken outside the wall-clock interval.
    const cpuStart = measured ? cpuNow() : undefined;
    const turnStart = process.hrtime.bigint();
    await harness.runTurn('long-user', sessionId, `Turn ${i + 1}: what is the weather in Paris?`);
    const ms = elapsedMs(turnStart);
    if (cpuStart === undefined) continue;
    const cpuMs = cpuMsSince(cpuStart);
    if (i < 10) {
      windows.early.push(ms);
      windows.earlyCpu.push(cpuMs);
    } else {
      windows.late.push(ms);
      windows.lateCpu.push(cpuMs);
    }
  }
  return windows;
}

/**
 * Scenario 2: sessions driven for `longSessionTurns` turns each. Compares the cost of turns 1-10
 * with turns 190-200 (1-based, inclusive): a framework that copies or rescans the whole history on
 * every turn gets slower as the conversation grows. Figures are medians of the window's turns
 * (pooled over the sessions), so one garbage-collection pause does not decide the ratio. Each
 * session starts after a forced collection and a few settling turns ({@link collectThenSettle}).
 */
export const longSession: Scenario = async (factory, sizes) => {
  const harness = await factory();
  const early: number[] = [];
  const late: number[] = [];
  const earlyCpu: number[] = [];
  const lateCpu: number[] = [];
  let settleCalls = 0;
  for (let session = 0; session < SESSIONS; session++) {
    const windows = await driveSession(harness, `long-session-${session}`, sizes.longSessionTurns);
    early.push(...windows.early);
    late.push(...windows.late);
    earlyCpu.push(...windows.earlyCpu);
    lateCpu.push(...windows.lateCpu);
    settleCalls += windows.settleCalls;
  }
  assertToolRan(harness.toolCalls - settleCalls, SESSIONS * sizes.longSessionTurns, 'long-session');
  await harness.close();
  const turns1to10Ms = median(early);
  const turns190to200Ms = median(late);
  const cpuEarly = median(earlyCpu);
  const cpuLate = median(lateCpu);
  return {
    turns1to10Ms,
    turns190to200Ms,
    growth: turns190to200Ms / turns1to10Ms,
    turns1to10CpuMs: cpuEarly,
    turns190to200CpuMs: cpuLate,
    cpuGrowth: cpuLate / cpuEarly,
  };
};
