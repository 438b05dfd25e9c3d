/**
 * SQL session store benchmark: append throughput and get-session latency with 1,000 events, on a
 * SQLite file and on PostgreSQL, for `@adk/session-sql` and `@google/adk` 2.0.0's
 * `DatabaseSessionService`, side by side in one run (appends in alternating slices, reads
 * alternating, so both stores see the same load on a shared machine). Called by the main bench
 * (`runSessionSqlBench`) and runnable alone (`session-sql-main.ts`).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import type { BenchRow } from './report/row';
import { ourStore, theirStore } from './session-sql-stores';
import { runnerTurnRows } from './session-sql-turns';
import { workloadEvent, type SessionStoreUnderTest } from './session-sql-workload';
import { pgClient } from './pg-client';

/** Options of {@link runSessionSqlBench}. */
export interface SessionSqlBenchOptions {
  /** Fewer events and reads (200 events, 5 reads) for a smoke run. */
  quick?: boolean;
  /** Events appended per session (default 1,000). */
  events?: number;
  /** Full reads timed per store (default 20). */
  reads?: number;
  /** Server to create a scratch database on (default `ADK_TEST_POSTGRES_URL` or local `test`). */
  postgresUrl?: string;
  /** Databases to measure (default both). */
  databases?: ('sqlite' | 'postgres')[];
  /** Runner turns per session in the runner-turn comparison (default 600; 0 skips it). */
  runnerTurns?: number;
}

/** A result row: the main bench's `BenchRow`, plus a short name and the ratio ours ÷ theirs. */
export interface SessionSqlBenchRow extends BenchRow {
  name: string;
  ratio: number | undefined;
}

interface Measured {
  appendsPerSecond: number;
  getMedianMs: number;
  events: number;
  /** What the store's connection reports about commit durability. */
  durability: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** A store being measured: its session, and the time and reads accumulated so far. */
interface Lane {
  store: SessionStoreUnderTest;
  sessionId: string;
  session: unknown;
  appended: number;
  appendMs: number;
  readMs: number[];
}

const SLICES = 10;

async function openLane(store: SessionStoreUnderTest): Promise<Lane> {
  // Warm up: connections, schema, JIT.
  const warm = await store.createSession(`warm-${randomBytes(3).toString('hex')}`);
  for (let index = 0; index < 30; index++) await store.append(warm, workloadEvent(index));
  await store.get((warm as { id: string }).id);
  const sessionId = `s-${randomBytes(4).toString('hex')}`;
  return {
    store,
    sessionId,
    session: await store.createSession(sessionId),
    appended: 0,
    appendMs: 0,
    readMs: [],
  };
}

async function appendSlice(lane: Lane, count: number): Promise<void> {
  const started = performance.now();
  for (let index = 0; index < count; index++) {
    await lane.store.append(lane.session, workloadEvent(lane.appended + index));
  }
  lane.appendMs += performance.now() - started;
  lane.appended += count;
}

async function readOnce(lane: Lane, expected: number): Promise<void> {
  const started = performance.now();
  const count = await lane.store.get(lane.sessionId);
  lane.readMs.push(performance.now() - started);
  if (count !== expected) {
    throw new TypeError(`${lane.store.name}: read ${count} events back, expected ${expected}`);
  }
}

/**
 * Measure the stores side by side: the appends run in slices, alternating which store goes first,
 * and the reads alternate too, so that both see the same machine load (the machine is shared).
 */
async function measureSideBySide(
  stores: SessionStoreUnderTest[],
  events: number,
  reads: number,
): Promise<Measured[]> {
  const lanes: Lane[] = [];
  for (const store of stores) lanes.push(await openLane(store));
  // Read on each store's own connection once it is warm: both sides must commit alike.
  const durability = await Promise.all(lanes.map((lane) => lane.store.durability()));
  lanes.forEach((lane, index) =>
    console.error(`[session-sql bench] ${lane.store.name}: ${durability[index]}`),
  );
  const synchronous = new Set(durability.map((text) => /synchronous\w*=(\w+)/.exec(text)?.[1]));
  if (synchronous.size > 1)
    console.error('[session-sql bench] WARNING: the stores commit with different durability');
  const slice = Math.ceil(events / SLICES);
  for (let round = 0; round * slice < events; round++) {
    const count = Math.min(slice, events - round * slice);
    const order = round % 2 === 0 ? lanes : [...lanes].reverse();
    for (const lane of order) await appendSlice(lane, count);
  }
  for (let read = 0; read < reads; read++) {
    const order = read % 2 === 0 ? lanes : [...lanes].reverse();
    for (const lane of order) await readOnce(lane, events);
  }
  return lanes.map((lane, index) => ({
    appendsPerSecond: (events / lane.appendMs) * 1000,
    getMedianMs: median(lane.readMs),
    events,
    durability: durability[index]!,
  }));
}

function rows(
  database: string,
  ours: Measured | undefined,
  theirs: Measured | undefined,
  events: number,
): SessionSqlBenchRow[] {
  const commits = ours && theirs ? ` (ours ${ours.durability}; theirs ${theirs.durability})` : '';
  const append: SessionSqlBenchRow = {
    name: `append-${database.toLowerCase()}`,
    label: `SQL sessions (${database}): append throughput, ${events} events${commits}`,
    unit: 'events/s',
    ours: ours?.appendsPerSecond,
    theirs: theirs?.appendsPerSecond,
    better: 'higher',
    goal: { subject: 'ratio', op: '>=', target: 5 },
    ratio: ours && theirs ? ours.appendsPerSecond / theirs.appendsPerSecond : undefined,
  };
  const get: SessionSqlBenchRow = {
    name: `get-${database.toLowerCase()}`,
    label: `SQL sessions (${database}): getSession with ${events} events, p50`,
    unit: 'ms',
    ours: ours?.getMedianMs,
    theirs: theirs?.getMedianMs,
    better: 'lower',
    ratio: ours && theirs ? ours.getMedianMs / theirs.getMedianMs : undefined,
  };
  return [append, get];
}

async function open(
  label: string,
  opener: () => Promise<SessionStoreUnderTest>,
): Promise<SessionStoreUnderTest | undefined> {
  try {
    return await opener();
  } catch (error) {
    console.error(
      `[session-sql bench] ${label} failed to open: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

/** Ours and theirs side by side; a store that fails is reported as unmeasured. */
async function comparePair(
  openOurs: () => Promise<SessionStoreUnderTest>,
  openTheirs: () => Promise<SessionStoreUnderTest>,
  events: number,
  reads: number,
): Promise<{ ours: Measured | undefined; theirs: Measured | undefined }> {
  const ours = await open('ours', openOurs);
  const theirs = await open('@google/adk', openTheirs);
  const present = [ours, theirs].filter((store) => store !== undefined);
  try {
    const measured = await measureSideBySide(present, events, reads);
    return {
      ours: ours ? measured[present.indexOf(ours)] : undefined,
      theirs: theirs ? measured[present.indexOf(theirs)] : undefined,
    };
  } catch (error) {
    console.error(
      `[session-sql bench] measurement failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { ours: undefined, theirs: undefined };
  } finally {
    await Promise.all(present.map((store) => store.close()));
  }
}

async function sqliteRows(events: number, reads: number): Promise<SessionSqlBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'adk-bench-sql-'));
  try {
    const { ours, theirs } = await comparePair(
      () => ourStore(`sqlite:${join(dir, 'ours.db')}`),
      () => theirStore(`sqlite://${join(dir, 'theirs.db')}`),
      events,
      reads,
    );
    return rows('SQLite file', ours, theirs, events);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgresRows(
  serverUrl: string,
  events: number,
  reads: number,
): Promise<SessionSqlBenchRow[]> {
  const database = `adk_bench_${randomBytes(4).toString('hex')}`;
  const admin = pgClient(serverUrl);
  try {
    await admin.connect();
  } catch (error) {
    console.error(
      `[session-sql bench] PostgreSQL unreachable, skipped: ${error instanceof Error ? error.message : String(error)}`,
    );
    return rows('PostgreSQL', undefined, undefined, events);
  }
  try {
    await admin.query(`create database ${database}`);
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    const { ours, theirs } = await comparePair(
      () => ourStore(url.toString(), 'adk_ts'),
      () => theirStore(url.toString()),
      events,
      reads,
    );
    return rows('PostgreSQL', ours, theirs, events);
  } finally {
    await admin.query(`drop database if exists ${database} with (force)`).catch(() => undefined);
    await admin.end();
  }
}

/**
 * Measure append throughput (one writer appending through the session object it holds, as a
 * runner does) and full `getSession` latency, for both stores, on each database.
 */
export async function runSessionSqlBench(
  options: SessionSqlBenchOptions = {},
): Promise<SessionSqlBenchRow[]> {
  const events = options.events ?? (options.quick ? 200 : 1000);
  const reads = options.reads ?? (options.quick ? 5 : 20);
  const databases = options.databases ?? ['sqlite', 'postgres'];
  const result: SessionSqlBenchRow[] = [];
  if (databases.includes('sqlite')) result.push(...(await sqliteRows(events, reads)));
  if (databases.includes('postgres')) {
    const serverUrl =
      options.postgresUrl ??
      process.env.ADK_TEST_POSTGRES_URL ??
      'postgres://postgres@127.0.0.1:5432/test';
    result.push(...(await postgresRows(serverUrl, events, reads)));
  }
  const runnerTurns = options.runnerTurns ?? (options.quick ? 100 : 600);
  if (runnerTurns > 0) {
    const postgresUrl = databases.includes('postgres')
      ? (options.postgresUrl ??
        process.env.ADK_TEST_POSTGRES_URL ??
        'postgres://postgres@127.0.0.1:5432/test')
      : undefined;
    result.push(...(await runnerTurnsOnEveryStore(runnerTurns, postgresUrl)));
  }
  return result;
}

/** Runner turns on the in-memory store, a SQLite file and (when reachable) PostgreSQL. */
async function runnerTurnsOnEveryStore(
  turns: number,
  postgresUrl: string | undefined,
): Promise<SessionSqlBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'adk-bench-turns-'));
  const schema = `adk_bench_turns_${randomBytes(4).toString('hex')}`;
  let admin: ReturnType<typeof pgClient> | undefined;
  if (postgresUrl !== undefined) {
    admin = pgClient(postgresUrl);
    try {
      await admin.connect();
    } catch (error) {
      console.error(
        `[session-sql bench] PostgreSQL unreachable, runner turns skipped there: ${error instanceof Error ? error.message : String(error)}`,
      );
      admin = undefined;
    }
  }
  try {
    return await runnerTurnRows({
      turns,
      sqliteFile: join(dir, 'turns.db'),
      ...(admin === undefined ? {} : { postgresUrl, postgresSchema: schema }),
    });
  } catch (error) {
    console.error(
      `[session-sql bench] runner turns failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return [];
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (admin !== undefined) {
      await admin.query(`drop schema if exists ${schema} cascade`).catch(() => undefined);
      await admin.end();
    }
  }
}
