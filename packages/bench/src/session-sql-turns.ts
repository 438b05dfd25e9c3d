/**
 * Runner turns on each session store, side by side: the in-memory store, `@adk/session-sql` on a
 * SQLite file and on PostgreSQL, each driving one session of the bench agent (a tool call and an
 * answer per turn, four stored events) for `turns` turns. The turns run interleaved (turn i on
 * every store, then turn i + 1), so every store sees the same machine load. A store whose turn
 * reloads the whole history gets slower as the session grows; the figure is the median of the
 * last ten turns ÷ the median of turns 1-10 (after a warm-up session).
 */
import { InMemorySessionService, type SessionService } from '@adk/core';
import { SqlSessionService } from '@adk/session-sql';

import { createAdkTsHarness } from './frameworks/adk-ts';
import type { FrameworkHarness } from './frameworks/framework';
import type { BenchRow } from './report/row';

/** One store's turn times. */
interface Lane {
  name: string;
  service: SessionService;
  harness: FrameworkHarness;
  early: number[];
  late: number[];
  earlyCpu: number[];
  lateCpu: number[];
}

/** What {@link measureRunnerTurns} reports per store. */
export interface RunnerTurnFigures {
  store: string;
  turns1to10Ms: number;
  lastTenMs: number;
  growth: number;
  /** CPU time of the process during the turns (ms), which the disk's flushes do not blur. */
  turns1to10CpuMs: number;
  lastTenCpuMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const USER = 'turns-user';

async function turn(
  lane: Lane,
  sessionId: string,
  index: number,
): Promise<{ ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  await lane.harness.runTurn(USER, sessionId, `Turn ${index + 1}: what is the weather in Paris?`);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * Drive `turns` runner turns on each store, interleaved. `stores` are opened by the caller (and
 * closed here).
 */
export async function measureRunnerTurns(
  stores: Array<{ name: string; service: SessionService }>,
  turns: number,
): Promise<RunnerTurnFigures[]> {
  const lanes: Lane[] = [];
  for (const { name, service } of stores) {
    lanes.push({
      name,
      service,
      harness: await createAdkTsHarness(service),
      early: [],
      late: [],
      earlyCpu: [],
      lateCpu: [],
    });
  }
  try {
    for (const lane of lanes) {
      await lane.harness.createSession(USER, 'warm-up');
      for (let index = 0; index < 20; index++) await turn(lane, 'warm-up', index);
      await lane.harness.createSession(USER, 'measured');
    }
    globalThis.gc?.();
    for (let index = 0; index < turns; index++) {
      const order = index % 2 === 0 ? lanes : [...lanes].reverse();
      for (const lane of order) {
        const { ms, cpuMs } = await turn(lane, 'measured', index);
        if (index < 10) {
          lane.early.push(ms);
          lane.earlyCpu.push(cpuMs);
        } else if (index >= turns - 10) {
          lane.late.push(ms);
          lane.lateCpu.push(cpuMs);
        }
      }
    }
  } finally {
    for (const lane of lanes) await lane.harness.close();
  }
  return lanes.map((lane) => ({
    store: lane.name,
    turns1to10Ms: median(lane.early),
    lastTenMs: median(lane.late),
    growth: median(lane.late) / median(lane.early),
    turns1to10CpuMs: median(lane.earlyCpu),
    lastTenCpuMs: median(lane.lateCpu),
  }));
}

/**
 * The rows of `pnpm bench`: per store, the growth of a runner turn's cost from turns 1-10 to the
 * last ten turns of a `turns`-turn session (goal 1.3x on the SQL stores).
 */
export async function runnerTurnRows(options: {
  turns: number;
  sqliteFile: string;
  postgresUrl?: string;
  postgresSchema?: string;
}): Promise<Array<BenchRow & { name: string; ratio: undefined }>> {
  const stores: Array<{ name: string; service: SessionService }> = [
    { name: 'in-memory', service: new InMemorySessionService() },
    {
      name: 'SQLite file',
      service: await SqlSessionService.fromUrl(`sqlite:${options.sqliteFile}`, {
        autoMigrate: true,
      }),
    },
  ];
  if (options.postgresUrl !== undefined) {
    stores.push({
      name: 'PostgreSQL',
      service: await SqlSessionService.fromUrl(options.postgresUrl, {
        autoMigrate: true,
        ...(options.postgresSchema === undefined ? {} : { schema: options.postgresSchema }),
      }),
    });
  }
  try {
    const figures = await measureRunnerTurns(stores, options.turns);
    const rows: Array<BenchRow & { name: string; ratio: undefined }> = [];
    for (const figure of figures) {
      console.error(
        `[session-sql bench] runner turns, ${figure.store}: turns 1-10 ${figure.turns1to10Ms.toFixed(2)} ms, ` +
          `turns ${options.turns - 9}-${options.turns} ${figure.lastTenMs.toFixed(2)} ms (${figure.growth.toFixed(2)}x); ` +
          `CPU ${figure.turns1to10CpuMs.toFixed(2)} ms -> ${figure.lastTenCpuMs.toFixed(2)} ms`,
      );
      rows.push(
        {
          name: `runner-turn-growth-${figure.store.toLowerCase().replace(/ /g, '-')}`,
          ratio: undefined,
          label: `Runner turn on ${figure.store} sessions: turns ${options.turns - 9}-${options.turns} ÷ turns 1-10 (ours only)`,
          unit: 'x',
          ours: figure.growth,
          theirs: undefined,
          better: 'lower',
          ...(figure.store === 'in-memory'
            ? {}
            : { goal: { subject: 'ours' as const, op: '<=' as const, target: 1.3 } }),
        },
        {
          name: `runner-turn-late-${figure.store.toLowerCase().replace(/ /g, '-')}`,
          ratio: undefined,
          label: `Runner turn on ${figure.store} sessions: turns ${options.turns - 9}-${options.turns}, p50 (ours only)`,
          unit: 'ms',
          ours: figure.lastTenMs,
          theirs: undefined,
          better: 'lower',
        },
      );
    }
    return rows;
  } finally {
    for (const { service } of stores) {
      if (service instanceof SqlSessionService) await service.close();
    }
  }
}
