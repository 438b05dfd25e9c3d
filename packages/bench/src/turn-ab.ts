/**
 * Fresh-session turn latency of several checkouts of this repository, compared in ONE process, for
 * a busy machine (not part of `pnpm bench`):
 * `node --expose-gc --conditions=source --import tsx src/turn-ab.ts <rounds> <block> <checkout>...`
 * where each `<checkout>` is the root of a worktree with its dependencies installed (for example
 * `/work/wt/base main`), the first one being the reference.
 *
 * Each checkout's `adk-ts` harness (its own copy of core, loaded from its own sources) is warmed up
 * as a benchmark worker is, then the checkouts take turns: in each round, `block` fresh-session
 * turns of each, in an order that rotates from round to round. The load of other processes then
 * falls on all of them alike, which separate processes run one after the other do not get: at a
 * load average of 10 on 2 cores, single runs of `pnpm bench` move by 50%, while the ratio of two
 * checkouts here moves by a few percent (docs/PERFORMANCE.md, issue 29's fifth round).
 *
 * Printed per checkout: the p25, p50 and p75 of all its turns, the ratio of its p50 to the
 * reference's, the median over rounds of the ratio of its round's p50 to the reference's in the
 * same round, and in how many rounds it was the slower of the two.
 *
 * With `--concurrent` (before the checkouts), a block is the benchmark's concurrency scenario
 * instead: `block` sessions in flight at once, five turns each. Printed per checkout: the median
 * turns per second and per CPU-second over rounds, and the median over rounds of its figure
 * divided by the reference's in the same round (above 1 is faster).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import type { HarnessFactory } from './frameworks/framework';
import { runInFlight } from './scenarios/concurrent';
import { quantile } from './stats';

interface Side {
  name: string;
  factory: HarnessFactory;
  warmUp: (factory: HarnessFactory, turns: number) => Promise<void>;
  turns: number[];
  roundP50: number[];
}

async function load(checkout: string): Promise<Side> {
  const root = resolve(checkout);
  const adk = (await import(`${root}/packages/bench/src/frameworks/adk-ts.ts`)) as {
    createAdkTsHarness: HarnessFactory;
  };
  const scenarios = (await import(`${root}/packages/bench/src/scenarios/index.ts`)) as {
    warmUp: Side['warmUp'];
  };
  return {
    name: checkout,
    factory: adk.createAdkTsHarness,
    warmUp: scenarios.warmUp,
    turns: [],
    roundP50: [],
  };
}

async function main(): Promise<void> {
  const [roundsArg, blockArg, ...rest] = process.argv.slice(2);
  const rounds = Number(roundsArg);
  const block = Number(blockArg);
  const concurrent = rest[0] === '--concurrent';
  const checkouts = concurrent ? rest.slice(1) : rest;
  if (!(rounds > 0) || !(block > 0) || checkouts.length < 2) {
    throw new Error('usage: turn-ab.ts <rounds> <block> [--concurrent] <checkout> <checkout>...');
  }
  const sides: Side[] = [];
  for (const checkout of checkouts) sides.push(await load(checkout));
  for (const side of sides) await side.warmUp(side.factory, 500);
  if (concurrent) return compareConcurrency(sides, rounds, block);
  let next = 0;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(round + k) % sides.length]!;
      const harness = await side.factory();
      const samples: number[] = [];
      for (let i = 0; i < block; i++) {
        const sessionId = `ab-${next++}`;
        await harness.createSession('ab-user', sessionId);
        const start = process.hrtime.bigint();
        await harness.runTurn('ab-user', sessionId, 'What is the weather in Paris?');
        samples.push(Number(process.hrtime.bigint() - start) / 1000);
      }
      await harness.close();
      side.turns.push(...samples);
      side.roundP50.push(quantile(samples, 0.5));
    }
  }
  const reference = sides[0]!;
  const referenceP50 = quantile(reference.turns, 0.5);
  for (const side of sides) {
    const p50 = quantile(side.turns, 0.5);
    const ratios = side.roundP50.map((value, round) => value / reference.roundP50[round]!);
    console.log(
      [
        side.name,
        `p25 ${quantile(side.turns, 0.25).toFixed(1)} µs`,
        `p50 ${p50.toFixed(1)} µs`,
        `p75 ${quantile(side.turns, 0.75).toFixed(1)} µs`,
        `p50 ÷ reference ${(p50 / referenceP50).toFixed(3)}`,
        `median round ratio ${quantile(ratios, 0.5).toFixed(3)}`,
        `slower in ${ratios.filter((ratio) => ratio > 1).length}/${rounds} rounds`,
      ].join('  '),
    );
  }
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
}

/** Turns per session in a `--concurrent` block, as in the benchmark's concurrency scenario. */
const CONCURRENT_TURNS = 5;

/** `--concurrent`: each round, `sessions` sessions in flight on each side in turn. */
async function compareConcurrency(sides: Side[], rounds: number, sessions: number): Promise<void> {
  const perSecond = sides.map(() => [] as number[]);
  const perCpuSecond = sides.map(() => [] as number[]);
  let next = 0;
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < sides.length; k++) {
      const index = (round + k) % sides.length;
      const harness = await sides[index]!.factory();
      const ids = Array.from({ length: sessions }, () => `ab-${next++}`);
      for (const id of ids) await harness.createSession('ab-user', id);
      const rate = await runInFlight(harness, ids, 'ab-user', CONCURRENT_TURNS);
      perSecond[index]!.push(rate.turnsPerSecond);
      perCpuSecond[index]!.push(rate.turnsPerCpuSecond);
      await harness.close();
    }
  }
  const ratios = (figures: number[][], side: number) =>
    figures[side]!.map((value, round) => value / figures[0]![round]!);
  for (let side = 0; side < sides.length; side++) {
    console.log(
      [
        sides[side]!.name,
        `turns/s ${quantile(perSecond[side]!, 0.5).toFixed(0)}`,
        `per CPU-second ${quantile(perCpuSecond[side]!, 0.5).toFixed(0)}`,
        `÷ reference ${quantile(ratios(perSecond, side), 0.5).toFixed(3)}`,
        `per CPU-second ÷ reference ${quantile(ratios(perCpuSecond, side), 0.5).toFixed(3)}`,
      ].join('  '),
    );
  }
  console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
