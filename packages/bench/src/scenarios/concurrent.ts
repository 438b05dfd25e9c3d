import { cpuMsSince, cpuNow, elapsedMs } from '../stats';
import type { FrameworkHarness } from '../frameworks/framework';
import type { Scenario } from './scenario';
import { assertToolRan, collectThenSettle } from './scenario';

/** Turns per second of wall time and per CPU-second of one burst of sessions in flight. */
export interface InFlightRate {
  turnsPerSecond: number;
  turnsPerCpuSecond: number;
  wallMs: number;
}

/**
 * Run `turns` turns on each of the sessions `ids` (already created), every session at once and its
 * turns one after the other, and time the burst: the concurrency scenario's measured part, also
 * driven by `turn-ab.ts --concurrent`.
 */
export async function runInFlight(
  harness: FrameworkHarness,
  ids: readonly string[],
  userId: string,
  turns: number,
): Promise<InFlightRate> {
  const start = process.hrtime.bigint();
  const cpuStart = cpuNow();
  await Promise.all(
    ids.map(async (id) => {
      for (let turn = 0; turn < turns; turn++) {
        await harness.runTurn(userId, id, `Turn ${turn + 1}: weather?`);
      }
    }),
  );
  const wallMs = elapsedMs(start);
  const cpuMs = cpuMsSince(cpuStart);
  const total = ids.length * turns;
  return {
    turnsPerSecond: (total / wallMs) * 1000,
    turnsPerCpuSecond: (total / cpuMs) * 1000,
    wallMs,
  };
}

/**
 * Scenario 3: `concurrentSessions` sessions in flight at once, each running
 * `turnsPerConcurrentSession` turns one after the other. Sessions are created before the clock
 * starts, then the heap is collected and the harness settled ({@link collectThenSettle}); the
 * figure is completed turns per second of wall time.
 */
export const concurrent: Scenario = async (factory, sizes) => {
  const harness = await factory();
  const ids = Array.from({ length: sizes.concurrentSessions }, (_, i) => `concurrent-${i}`);
  for (const id of ids) await harness.createSession('concurrent-user', id);
  const settleCalls = await collectThenSettle(harness, 'concurrent');
  const rate = await runInFlight(harness, ids, 'concurrent-user', sizes.turnsPerConcurrentSession);
  const turns = sizes.concurrentSessions * sizes.turnsPerConcurrentSession;
  assertToolRan(harness.toolCalls - settleCalls, turns, 'concurrent');
  await harness.close();
  return { ...rate };
};
