import type { Scenario } from './scenario';
import { assertToolRan } from './scenario';

/**
 * Live memory after full collections (needs `--expose-gc`): the V8 heap plus external memory
 * (buffers), so that moving data off the heap cannot hide it.
 */
function settledHeap(): number {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('idle-heap needs node --expose-gc');
  for (let i = 0; i < 4; i++) gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/**
 * Scenario 4: heap retained by idle sessions. Creates `idleSessions` sessions (measured empty),
 * then runs one turn in each (four events: user message, function call, function response, answer)
 * and measures again. Figures are bytes per 1,000 sessions, after garbage collection, with the
 * harness kept alive so its session store is what is measured.
 */
export const idleHeap: Scenario = async (factory, sizes) => {
  const harness = await factory();
  // One turn first, so lazily built caches (schemas, declarations) are not charged to sessions.
  await harness.createSession('idle-user', 'idle-prime');
  await harness.runTurn('idle-user', 'idle-prime', 'What is the weather in Paris?');
  const base = settledHeap();
  const ids = Array.from({ length: sizes.idleSessions }, (_, i) => `idle-${i}`);
  for (const id of ids) await harness.createSession('idle-user', id);
  const empty = settledHeap();
  for (const id of ids) await harness.runTurn('idle-user', id, 'What is the weather in Paris?');
  const afterTurn = settledHeap();
  assertToolRan(harness.toolCalls, sizes.idleSessions + 1, 'idle-heap');
  const per1000 = 1000 / sizes.idleSessions;
  const result = {
    emptyBytesPer1000: (empty - base) * per1000,
    oneTurnBytesPer1000: (afterTurn - base) * per1000,
  };
  await harness.close();
  return result;
};
