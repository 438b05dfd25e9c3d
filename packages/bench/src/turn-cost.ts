/**
 * What one framework's fresh-session turn costs in allocation and promises, for profiling (not
 * part of `pnpm bench`):
 * `node --expose-gc --conditions=source --import tsx src/turn-cost.ts <adk-ts|floor> [turns]`.
 *
 * - bytes allocated per turn: the sampling heap profiler with the objects the minor and major
 *   collectors freed included, so it counts everything a turn allocates, not what survives;
 * - promises created per turn: an `async_hooks` init hook counting `PROMISE` resources;
 * - the p50 of the same turns, timed without either (a separate pass).
 *
 * Session creation is measured alone and subtracted. `TURN_COST_FRAMES=1` also prints the frames
 * that allocate the most, `TURN_COST_PROMISE_SITES=1` where the promises are made (both to stderr).
 */
import { createHook } from 'node:async_hooks';
import { Session } from 'node:inspector/promises';

import type { FrameworkId } from './frameworks/framework';
import { loadHarnessFactory } from './frameworks/load';
import { warmUp } from './scenarios';
import { quantile } from './stats';

async function main(): Promise<void> {
  const framework = process.argv[2] as FrameworkId;
  const turns = Number(process.argv[3] ?? 4000);
  const factory = await loadHarnessFactory(framework);
  await warmUp(factory, 500);
  const harness = await factory();
  let next = 0;
  const turn = async (): Promise<void> => {
    const sessionId = `s-${next++}`;
    await harness.createSession('u', sessionId);
    await harness.runTurn('u', sessionId, 'What is the weather in Paris?');
  };
  // Session creation alone, to subtract it from the figures of a turn.
  const create = async (): Promise<void> => {
    await harness.createSession('u', `c-${next++}`);
  };

  const session = new Session();
  session.connect();
  const allocated = async (work: () => Promise<void>): Promise<number> => {
    globalThis.gc?.();
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 128,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as never);
    for (let i = 0; i < turns; i++) await work();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    // Each sample stands for the bytes of its allocation (Node's typings leave `samples` out).
    const { samples } = profile as unknown as { samples: Array<{ size: number }> };
    let bytes = 0;
    for (const sample of samples) bytes += sample.size;
    if (process.env.TURN_COST_FRAMES) printFrames(profile.head, turns);
    return bytes / turns;
  };
  const promises = async (work: () => Promise<void>): Promise<number> => {
    let count = 0;
    const sites = process.env.TURN_COST_PROMISE_SITES ? new Map<string, number>() : undefined;
    const hook = createHook({
      init(_id, type) {
        if (type !== 'PROMISE') return;
        count++;
        if (sites) {
          // `TURN_COST_PROMISE_SITES=1`: where promises are made (the first frames outside node:).
          const frames = (new Error().stack ?? '').split('\n').slice(2);
          const own = frames.filter((frame) => !frame.includes('node:')).slice(0, 2);
          const key = own
            .map((frame) => frame.trim().replace(/\(.*\/(src|dist)\//, '('))
            .join(' < ');
          sites.set(key, (sites.get(key) ?? 0) + 1);
        }
      },
    });
    hook.enable();
    for (let i = 0; i < turns; i++) await work();
    hook.disable();
    if (sites) {
      const top = [...sites].sort((a, b) => b[1] - a[1]).slice(0, 40);
      for (const [key, n] of top) console.error(`${(n / turns).toFixed(1).padStart(5)}  ${key}`);
      console.error('---');
    }
    return count / turns;
  };

  const turnBytes = await allocated(turn);
  const createBytes = await allocated(create);
  const turnPromises = await promises(turn);
  const createPromises = await promises(create);
  const samples: number[] = [];
  for (let i = 0; i < turns; i++) {
    const start = process.hrtime.bigint();
    await turn();
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  console.log(
    JSON.stringify({
      framework,
      kbPerTurn: +((turnBytes - createBytes) / 1024).toFixed(2),
      promisesPerTurn: +(turnPromises - createPromises).toFixed(1),
      p50MicrosWithCreate: +quantile(samples, 0.5).toFixed(2),
    }),
  );
  await harness.close();
}

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/** `TURN_COST_FRAMES=1`: the frames that allocate the most, bytes per turn (to stderr). */
function printFrames(head: AllocationNode, turns: number): void {
  const bytes = new Map<string, number>();
  const visit = (node: AllocationNode): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child);
  };
  visit(head);
  const top = [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 40);
  for (const [key, size] of top)
    console.error(`${(size / turns).toFixed(0).padStart(6)} B  ${key}`);
  console.error('---');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
