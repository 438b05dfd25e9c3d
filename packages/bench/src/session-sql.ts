/**
 * SQL session store benchmark: append throughput and get-session latency with 1,000 events, on a
 * SQLite file and on PostgreSQL, for `@adk/session-sql` and `@google/adk` 2.0.0's
 * `DatabaseSessionService`, in one run. Called by the main bench (`runSessionSqlBench`) and
 * runnable alone (`session-sql-main.ts`).
 */
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import type { BenchRow } from './report/row';
import { ourStore, theirStore } from './session-sql-stores';
import { workloadEvent, type SessionStoreUnderTest } from './session-sql-workload';

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
}

/** The part of `pg` used here (the bench package does not depend on `@types/pg`). */
interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}
const pg = createRequire(import.meta.url)('pg') as {
  Client: new (config: { connectionString: string }) => PgClient;
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function measure(
  store: SessionStoreUnderTest,
  events: number,
  reads: number,
): Promise<Measured> {
  // Warm up: connections, prepared paths, JIT.
  const warm = await store.createSession(`warm-${randomBytes(3).toString('hex')}`);
  for (let index = 0; index < 30; index++) await store.append(warm, workloadEvent(index));
  await store.get((warm as { id: string }).id);

  const sessionId = `s-${randomBytes(4).toString('hex')}`;
  const session = await store.createSession(sessionId);
  const started = performance.now();
  for (let index = 0; index < events; index++) await store.append(session, workloadEvent(index));
  const elapsed = performance.now() - started;

  const latencies: number[] = [];
  let count = 0;
  for (let read = 0; read < reads; read++) {
    const start = performance.now();
    count = await store.get(sessionId);
    latencies.push(performance.now() - start);
  }
  if (count !== events)
    throw new TypeError(`${store.name}: read ${count} events back, expected ${events}`);
  return { appendsPerSecond: (events / elapsed) * 1000, getMedianMs: median(latencies), events };
}

function rows(
  database: string,
  ours: Measured | undefined,
  theirs: Measured | undefined,
  events: number,
): SessionSqlBenchRow[] {
  const append: SessionSqlBenchRow = {
    name: `append-${database.toLowerCase()}`,
    label: `SQL sessions (${database}): append throughput, ${events} events`,
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

async function attempt(label: string, run: () => Promise<Measured>): Promise<Measured | undefined> {
  try {
    return await run();
  } catch (error) {
    console.error(
      `[session-sql bench] ${label} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
}

async function withStore(
  open: () => Promise<SessionStoreUnderTest>,
  events: number,
  reads: number,
): Promise<Measured> {
  const store = await open();
  try {
    return await measure(store, events, reads);
  } finally {
    await store.close();
  }
}

async function sqliteRows(events: number, reads: number): Promise<SessionSqlBenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'adk-bench-sql-'));
  try {
    const theirs = await attempt('@google/adk on SQLite', () =>
      withStore(() => theirStore(`sqlite://${join(dir, 'theirs.db')}`), events, reads),
    );
    const ours = await attempt('ours on SQLite', () =>
      withStore(() => ourStore(`sqlite:${join(dir, 'ours.db')}`), events, reads),
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
  const admin = new pg.Client({ connectionString: serverUrl });
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
    const theirs = await attempt('@google/adk on PostgreSQL', () =>
      withStore(() => theirStore(url.toString()), events, reads),
    );
    const ours = await attempt('ours on PostgreSQL', () =>
      withStore(() => ourStore(url.toString(), 'adk_ts'), events, reads),
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
  return result;
}
