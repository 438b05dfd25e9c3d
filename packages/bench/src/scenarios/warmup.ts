import type { HarnessFactory } from '../frameworks/framework';
import { assertToolRan } from './scenario';

/**
 * Warm the JIT and every lazy cache of a framework: `turns` turns, each on a fresh session, plus a
 * short multi-turn session, on a throwaway harness.
 */
export async function warmUp(factory: HarnessFactory, turns: number): Promise<void> {
  const harness = await factory();
  for (let i = 0; i < turns; i++) {
    const sessionId = `warm-${i}`;
    await harness.createSession('warm-user', sessionId);
    await harness.runTurn('warm-user', sessionId, 'What is the weather in Paris?');
  }
  await harness.createSession('warm-user', 'warm-long');
  for (let i = 0; i < 20; i++) await harness.runTurn('warm-user', 'warm-long', 'And now?');
  assertToolRan(harness.toolCalls, turns + 20, 'warm-up');
  await harness.close();
}
