import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { expect, it } from 'vitest';

const run = promisify(execFile);
const workload = fileURLToPath(new URL('./fixtures/trace-heap-workload.ts', import.meta.url));

interface Sample {
  turn: number;
  heapMb: number;
  traceMb: number;
}

/** Run the workload in a fresh Node process (heap after a full GC needs `--expose-gc`). */
async function heapSamples(environment: Record<string, string>): Promise<{
  samples: Sample[];
  sessionTraceChars: number;
}> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--conditions=source', '--import', 'tsx', workload],
    { env: { ...process.env, ...environment }, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    samples: Sample[];
    sessionTraceChars: number;
  };
}

it('keeps the heap a long-lived server spends on debug traces flat: 4,000 turns over 10 sessions', async () => {
  const environment = { TURNS: '4000', SESSIONS: '10', CHECKPOINT: '500' };
  // The same run without traces: what the sessions' own data takes (it grows with the data).
  const [traced, untraced] = await Promise.all([
    heapSamples(environment),
    heapSamples({ ...environment, NO_TRACES: '1' }),
  ]);
  const traceHeap = traced.samples.map((sample, index) => ({
    turn: sample.turn,
    mb: sample.heapMb - untraced.samples[index]!.heapMb,
    storeMb: sample.traceMb,
  }));
  console.log(traceHeap.map((s) => `${s.turn}: ${s.mb.toFixed(1)} MB`).join(', '));
  // The store never counts more than its 8 MiB default (plus one span).
  for (const sample of traceHeap) expect(sample.storeMb).toBeLessThanOrEqual(8.1);
  // After warm-up (the budget is reached by about turn 2,500), the traces' heap stays flat.
  const late = traceHeap.filter((sample) => sample.turn >= 2500).map((sample) => sample.mb);
  expect(Math.max(...late) - Math.min(...late)).toBeLessThan(3);
  expect(Math.max(...late)).toBeLessThan(14);
  // A session's trace answer is bounded too (2 MiB by default; 159 MB before the bound).
  expect(traced.sessionTraceChars).toBeLessThan(2.5 * 1024 * 1024);
}, 180_000);
