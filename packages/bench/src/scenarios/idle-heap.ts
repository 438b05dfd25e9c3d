import { setTimeout as sleep } from 'node:timers/promises';

import type { Scenario } from './scenario';
import { assertToolRan } from './scenario';

/**
 * Live memory after full collections (needs `--expose-gc`): the V8 heap plus external memory
 * (buffers), so that moving data off the heap cannot hide it. The event loop turns once first:
 * objects that V8 keeps alive until the current job ends (the targets of `WeakRef`s made or read
 * during it, such as those of an earlier scenario's harness) are not counted.
 */
async function settledHeap(): Promise<number> {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('idle-heap needs node --expose-gc');
  await new Promise((resolve) => setImmediate(resolve));
  for (let i = 0; i < 4; i++) gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** How long the sessions sit idle before the last measurement. */
export const IDLE_WAIT_MS = 5_000;

/**
 * Scenario 4: heap retained by idle sessions. Creates `idleSessions` sessions (measured empty),
 * then runs one turn in each (four events: user message, function call, function response, answer)
 * and measures again at once, and once more after the sessions have sat idle for
 * {@link IDLE_WAIT_MS} (the event loop free, as in a server between requests: a framework may
 * use the time to compact what it keeps). Figures are bytes per 1,000 sessions, after garbage
 * collection, with the harness kept alive so its session store is what is measured.
 */
export const idleHeap: Scenario = async (factory, sizes) => {
  const harness = await factory();
  // One turn first, left idle as long as the measured sessions will be, so that what a framework
  // builds or compiles once (schemas, declarations, the code that handles idle sessions) is not
  // charged to the measured sessions.
  await harness.createSession('idle-user', 'idle-prime');
  await harness.runTurn('idle-user', 'idle-prime', 'What is the weather in Paris?');
  await sleep(IDLE_WAIT_MS);
  const base = await settledHeap();
  const ids = Array.from({ length: sizes.idleSessions }, (_, i) => `idle-${i}`);
  for (const id of ids) await harness.createSession('idle-user', id);
  const empty = await settledHeap();
  for (const id of ids) await harness.runTurn('idle-user', id, 'What is the weather in Paris?');
  const afterTurn = await settledHeap();
  await sleep(IDLE_WAIT_MS);
  const idle = await settledHeap();
  assertToolRan(harness.toolCalls, sizes.idleSessions + 1, 'idle-heap');
  const per1000 = 1000 / sizes.idleSessions;
  const result = {
    emptyBytesPer1000: (empty - base) * per1000,
    oneTurnBytesPer1000: (afterTurn - base) * per1000,
    idleBytesPer1000: (idle - base) * per1000,
  };
  await harness.close();
  return result;
};
