/**
 * Soak of long sessions on `@adk/session-sql` (issue 32): a runner drives `--turns` turns (default
 * 8,000) round-robin over `--sessions` sessions (default 4, so 2,000 turns and 8,000 events each)
 * of the bench agent on a SQLite file, each user message padded to `--message-bytes` (default
 * 2,000). After every 500 turns it collects garbage and prints the heap in use: with the caches
 * bounded by bytes (the session store's loaded sessions, core's contents cache), the heap stops
 * growing once they are full. Run from packages/bench:
 * `pnpm soak:sessions [--turns N] [--sessions N] [--message-bytes N] [--url sqlite::memory:]
 * [--unbounded | --budget-mib N]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { configureContentsCache } from '@adk/core';
import { SqlSessionService } from '@adk/session-sql';

import { createAdkTsHarness } from './frameworks/adk-ts';

const { values } = parseArgs({
  options: {
    turns: { type: 'string', default: '8000' },
    sessions: { type: 'string', default: '4' },
    'message-bytes': { type: 'string', default: '2000' },
    every: { type: 'string', default: '500' },
    url: { type: 'string' },
    // No byte bounds (the caches bounded by count only, as before issue 32): for comparison.
    unbounded: { type: 'boolean', default: false },
    // Each cache's byte budget in MiB (default: the packages' defaults).
    'budget-mib': { type: 'string' },
  },
});
const turns = Number(values.turns);
const sessions = Number(values.sessions);
const messageBytes = Number(values['message-bytes']);
const every = Number(values.every);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new TypeError('run with node --expose-gc');

function heapMb(): number {
  gc!();
  gc!();
  return Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 10) / 10;
}

const dir = mkdtempSync(join(tmpdir(), 'adk-session-soak-'));
// Durability is not what is measured: no flush per commit. An in-memory SQLite database (`--url
// sqlite::memory:`) keeps its pages outside the JavaScript heap, like a file, and runs faster.
const url = values.url ?? `sqlite:${join(dir, 'soak.db')}?synchronous=off`;
const budget = values.unbounded
  ? Infinity
  : values['budget-mib'] === undefined
    ? undefined
    : Number(values['budget-mib']) * 2 ** 20;
const service = await SqlSessionService.fromUrl(url, {
  autoMigrate: true,
  ...(budget === undefined ? {} : { loadedSessionsMaxBytes: budget }),
});
if (budget !== undefined) configureContentsCache({ maxBytes: budget });
const harness = await createAdkTsHarness(service);
const padding = 'x'.repeat(messageBytes);
const ids = Array.from({ length: sessions }, (_, index) => `soak-${index}`);
try {
  for (const id of ids) await harness.createSession('soak-user', id);
  const started = Date.now();
  const samples: Array<{ turn: number; heapMb: number }> = [{ turn: 0, heapMb: heapMb() }];
  console.log(JSON.stringify(samples[0]));
  for (let turn = 1; turn <= turns; turn++) {
    const id = ids[turn % sessions]!;
    await harness.runTurn(
      'soak-user',
      id,
      `Turn ${turn}: what is the weather in Paris? ${padding}`,
    );
    if (turn % every === 0) {
      const sample = { turn, heapMb: heapMb() };
      samples.push(sample);
      console.log(JSON.stringify(sample));
    }
  }
  const at = (turn: number) => samples.find((sample) => sample.turn === turn)?.heapMb;
  // After warm-up (the second half of the run): the lowest and highest heap sampled.
  const late = samples.filter((sample) => sample.turn >= turns / 2).map((sample) => sample.heapMb);
  console.log(
    JSON.stringify({
      turns,
      sessions,
      messageBytes,
      budgetMiB: budget === undefined ? 'default' : budget === Infinity ? 'none' : budget / 2 ** 20,
      heapMbAt: { 1000: at(1000), 2000: at(2000), 4000: at(4000), 8000: at(8000) },
      secondHalfMinMb: Math.min(...late),
      secondHalfMaxMb: Math.max(...late),
      seconds: Math.round((Date.now() - started) / 1000),
    }),
  );
} finally {
  await harness.close();
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
