/**
 * The jobs benchmark (issue 18): jobs per second with 1, 2 and 4 worker processes on each store
 * (embedded SQLite, graphile-worker, BullMQ), a FakeModel agent with one tool call per job, and the
 * enqueue-to-start latency (p50/p95) of one idle worker. Run alone with
 * `pnpm --filter @adk/bench bench:jobs [-- --quick]`, or as part of `pnpm bench`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { userContent } from '@adk/core';
import { SqlJobStore, isQueueEngineJobStore, type JobStore } from '@adk/jobs';
import { BullMqJobStore } from '@adk/jobs/bullmq';
import { GraphileJobStore } from '@adk/jobs/graphile';
import { Redis } from 'ioredis';

import { POSTGRES_URL, REDIS_URL, sqliteJobsKysely } from './jobs-bench-urls';
import { pgClient } from './pg-client';

type Engine = 'sqlite' | 'graphile' | 'bullmq';
const ENGINES: Engine[] = ['sqlite', 'graphile', 'bullmq'];

/** One measured configuration. */
export interface JobsBenchRow {
  engine: Engine;
  processes: number;
  jobs: number;
  jobsPerSecond: number;
}

/** Enqueue-to-start latency of one engine. */
export interface JobsLatencyRow {
  engine: Engine;
  samples: number;
  p50Ms: number;
  p95Ms: number;
}

const script = fileURLToPath(new URL('./jobs-bench-worker.ts', import.meta.url));
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Fresh {
  where: string;
  store: JobStore;
  drop: () => Promise<void>;
}

async function fresh(engine: Engine, temp: string): Promise<Fresh> {
  const id = randomBytes(4).toString('hex');
  if (engine === 'sqlite') {
    const where = join(temp, `jobs-${id}.db`);
    const db = sqliteJobsKysely(where);
    const store = new SqlJobStore({ db });
    await store.migrate();
    return { where, store, drop: () => db.destroy() };
  }
  if (engine === 'graphile') {
    const where = `adk_bench_jobs_${id}`;
    const store = new GraphileJobStore({ connectionString: POSTGRES_URL, schema: where });
    await store.migrate();
    return {
      where,
      store,
      drop: async () => {
        await store.close();
        const client = pgClient(POSTGRES_URL);
        await client.connect();
        await client.query(`drop schema if exists "${where}" cascade`);
        await client.end();
      },
    };
  }
  const where = `adk-bench-jobs-${id}`;
  const store = new BullMqJobStore({ url: REDIS_URL, prefix: where });
  return {
    where,
    store,
    drop: async () => {
      await store.close();
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${where}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
}

function launch(engine: Engine, where: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', script, engine, where],
    {
      cwd: packageRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`jobs bench worker exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
  });
}

async function stopAll(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          child.removeAllListeners('exit');
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
}

/** Wait until no job is pending or running (cheap counts, polled every 50 ms). */
async function waitCompleted(store: JobStore, total: number): Promise<void> {
  for (;;) {
    await sleep(50);
    if (isQueueEngineJobStore(store)) {
      if ((await store.countActive('default')) === 0) break;
    } else {
      const left =
        (await store.list({ state: 'pending', limit: 1 })).length +
        (await store.list({ state: 'running', limit: 1 })).length;
      if (left === 0) break;
    }
  }
  const done = await store.list({ state: 'completed', limit: total + 1 });
  if (done.length !== total) throw new Error(`${done.length} of ${total} jobs completed`);
}

async function throughput(engine: Engine, processes: number, jobs: number, temp: string) {
  const { where, store, drop } = await fresh(engine, temp);
  const children = await Promise.all(
    Array.from({ length: processes }, () => launch(engine, where)),
  );
  try {
    const start = performance.now();
    for (let i = 0; i < jobs; i++)
      await store.enqueue({ appName: 'bench', userId: 'u1', message: userContent(`job ${i}`) });
    await waitCompleted(store, jobs);
    const seconds = (performance.now() - start) / 1000;
    return { engine, processes, jobs, jobsPerSecond: Math.round((jobs / seconds) * 10) / 10 };
  } finally {
    await stopAll(children);
    await drop();
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function latency(engine: Engine, samples: number, temp: string): Promise<JobsLatencyRow> {
  const { where, store, drop } = await fresh(engine, temp);
  const [child] = await Promise.all([launch(engine, where)]);
  try {
    const values: number[] = [];
    for (let i = 0; i < samples; i++) {
      // Spread the enqueues so a polling store is seen at every phase of its poll.
      await sleep(Math.random() * 100);
      const enqueuedAt = Date.now();
      const { job } = await store.enqueue({
        appName: 'bench',
        userId: 'u1',
        message: userContent(`latency ${i}`),
      });
      let started: number | undefined;
      while (started === undefined) {
        const current = await store.get(job.id);
        if (current?.state === 'completed') started = current.startedAt;
        else await sleep(2);
      }
      values.push(Math.max(0, (started ?? enqueuedAt) - enqueuedAt));
    }
    values.sort((a, b) => a - b);
    return { engine, samples, p50Ms: percentile(values, 50), p95Ms: percentile(values, 95) };
  } finally {
    await stopAll([child!]);
    await drop();
  }
}

/** Run the jobs benchmark; `quick` uses fewer jobs and samples. */
export async function runJobsBench(
  options: { quick?: boolean; engines?: Engine[] } = {},
): Promise<{ throughput: JobsBenchRow[]; latency: JobsLatencyRow[] }> {
  const jobs = options.quick ? 60 : 200;
  const samples = options.quick ? 20 : 60;
  const temp = mkdtempSync(join(tmpdir(), 'adk-jobs-bench-'));
  const rows: JobsBenchRow[] = [];
  const latencies: JobsLatencyRow[] = [];
  try {
    for (const engine of options.engines ?? ENGINES) {
      for (const processes of [1, 2, 4]) {
        console.error(`[bench] jobs: ${engine}, ${processes} worker process(es)`);
        rows.push(await throughput(engine, processes, jobs, temp));
      }
      console.error(`[bench] jobs: ${engine}, enqueue-to-start latency`);
      latencies.push(await latency(engine, samples, temp));
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return { throughput: rows, latency: latencies };
}

/** The result as Markdown tables. */
export function renderJobsBench(result: Awaited<ReturnType<typeof runJobsBench>>): string {
  const lines = [
    '| store | 1 process | 2 processes | 4 processes | enqueue to start p50 | p95 |',
    '| --- | --- | --- | --- | --- | --- |',
  ];
  for (const engine of new Set(result.throughput.map((row) => row.engine))) {
    const rate = (n: number) =>
      `${result.throughput.find((row) => row.engine === engine && row.processes === n)?.jobsPerSecond ?? '-'} jobs/s`;
    const lat = result.latency.find((row) => row.engine === engine);
    lines.push(
      `| ${engine} | ${rate(1)} | ${rate(2)} | ${rate(4)} | ${lat?.p50Ms ?? '-'} ms | ${lat?.p95Ms ?? '-'} ms |`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await runJobsBench({ quick: process.argv.includes('--quick') });
  console.log(renderJobsBench(result));
  process.exit(0);
}
