import { cpuMsSince, cpuNow, elapsedMs } from '../stats';
import type { Scenario } from './scenario';
import { assertToolRan, collectThenSettle } from './scenario';

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
  const start = process.hrtime.bigint();
  const cpuStart = cpuNow();
  await Promise.all(
    ids.map(async (id) => {
      for (let turn = 0; turn < sizes.turnsPerConcurrentSession; turn++) {
        await harness.runTurn('concurrent-user', id, `Turn ${turn + 1}: weather?`);
      }
    }),
  );
  const wallMs = elapsedMs(start);
  const cpuMs = cpuMsSince(cpuStart);
  const turns = sizes.concurrentSessions * sizes.turnsPerConcurrentSession;
  assertToolRan(harness.toolCalls - settleCalls, turns, 'concurrent');
  await harness.close();
  return {
    turnsPerSecond: (turns / wallMs) * 1000,
    turnsPerCpuSecond: (turns / cpuMs) * 1000,
    wallMs,
  };
};
