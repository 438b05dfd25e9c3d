import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { userContent } from '@adk/core';
import {
  POSTGRES_URL,
  dropPostgresSchema,
  postgresSchemaName,
  postgresUnavailable,
  bundledScript,
} from '@adk/test-databases';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { JobWorker } from '../src';
import { GraphileJobStore } from '../src/graphile';
import {
  afterToolCall,
  enqueueLongReport,
  gatedRunner,
  parkedJob,
  reportRunner,
  startQueueWorker,
  stoppedThenCompleted,
} from './fixtures/agents';
import { until } from './fixtures/until';

// Under CI=true an unreachable PostgreSQL throws here: its tests fail, never skip.
const skip = await postgresUnavailable();
const schema = postgresSchemaName('jobs_dead');
const script = await bundledScript(
  fileURLToPath(new URL('./fixtures/graphile-silent-worker-process.ts', import.meta.url)),
);
const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const cleanups: (() => Promise<void> | void)[] = [];

function store(): GraphileJobStore {
  const made = new GraphileJobStore({ connectionString: POSTGRES_URL, schema });
  cleanups.push(() => made.close());
  return made;
}

beforeAll(async () => {
  if (skip === undefined) await store().migrate();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  if (skip === undefined) await dropPostgresSchema(schema);
});

/** Start the silent worker process; resolves with its first `started` line. */
function silentWorker(queue: string): Promise<{ child: ChildProcess; id: string; owner: string }> {
  const child = spawn(process.execPath, [script, schema, queue], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(() => void child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`silent worker exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /started (\S+) (\S+)/.exec(chunk.toString());
      if (match) resolve({ child, id: match[1]!, owner: match[2]! });
    });
  });
}

describe.skipIf(skip !== undefined)('GraphileJobStore: a worker that died', () => {
  it('killed with SIGKILL before its first heartbeat, its job runs again within leaseMs + leaseMs / 3', async () => {
    const leaseMs = 2000;
    const jobs = store();
    const queue = `dead-${Date.now()}`;
    const { job } = await jobs.enqueue({
      queue,
      appName: 'reports',
      userId: 'u1',
      message: userContent('report'),
    });
    const silent = await silentWorker(queue);
    expect(silent.id).toBe(job.id);
    const running = (await jobs.get(job.id))!;
    expect(running).toMatchObject({ state: 'running', attempt: 1, leaseOwner: silent.owner });
    // PostgreSQL never heard from it: no heartbeat row at all.
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    const beats = await client.query(`select worker_id from "${schema}".adk_job_workers`);
    await client.end();
    expect(beats.rows).toEqual([]);
    silent.child.kill('SIGKILL');
    await new Promise((resolve) => silent.child.once('exit', resolve));

    const { runner } = reportRunner(() => 'Revenue grew 12%.');
    startQueueWorker(jobs, runner, queue, leaseMs, cleanups);
    const done = await until(
      () => jobs.get(job.id),
      (current) => current?.state === 'completed',
      // How long it took is read from PostgreSQL's own times below; this only guards a hang.
      60_000,
    );
    // Both times are PostgreSQL's (graphile's locked_at): the lock of the dead worker was kept
    // for leaseMs, and broken within the next heartbeat period (a third of leaseMs) after it; the
    // slack is what a busy 2-core machine adds to schedule the sweep and the new start (as in
    // crash-recovery.test.ts).
    const held = done!.startedAt! - running.startedAt!;
    expect(held).toBeGreaterThanOrEqual(leaseMs - 50);
    expect(held).toBeLessThanOrEqual(leaseMs + leaseMs / 3 + 1000);
    expect(done).toMatchObject({ attempt: 2, result: { finalText: 'Revenue grew 12%.' } });
  });

  it('a job unlocked by a sweep before its run starts is left for the next worker, not deleted: it runs once and completes', async () => {
    // What a sweep does to a live process whose heartbeat came late (a busy machine): its jobs are
    // force-unlocked. Here it happens between graphile's lock and the consumer's read of the job.
    let sweepOnRead: string | undefined;
    class SweptStore extends GraphileJobStore {
      override async get(id: string) {
        if (id === sweepOnRead) {
          // Only once graphile has locked it (the test's own reads come earlier).
          const client = new pg.Client({ connectionString: POSTGRES_URL });
          await client.connect();
          const swept = await client.query(
            `update "${schema}"._private_jobs set locked_at = null, locked_by = null
              where key = $1 and locked_at is not null`,
            [id],
          );
          await client.end();
          if (swept.rowCount === 1) sweepOnRead = undefined;
        }
        return super.get(id);
      }
    }
    const jobs = new SweptStore({ connectionString: POSTGRES_URL, schema, pollIntervalMs: 200 });
    cleanups.push(() => jobs.close());
    const queue = `swept-${Date.now()}`;
    const { runner, model } = reportRunner(() => 'Revenue grew 12%.');
    const worker = new JobWorker({
      store: jobs,
      runners: [runner],
      queues: { [queue]: 1 },
      // The one sweep here is the test's own. A lease of 2 s let a busy machine's late heartbeat
      // get the job swept a second time by a real sweep (attempt 3 in one CI run).
      leaseMs: 30_000,
      onError: () => undefined,
    });
    cleanups.push(() => worker.stop());
    const { job } = await jobs.enqueue({
      queue,
      appName: 'reports',
      userId: 'u1',
      message: userContent('report'),
    });
    sweepOnRead = job.id;
    worker.start();
    const done = await until(
      () => jobs.get(job.id),
      (current) => current?.state !== 'running' && current?.state !== 'pending',
      60_000,
    );
    // Before, the consumer returned from the task on reading "pending", and graphile deleted the
    // row as completed: the job read as cancelled, and never ran.
    expect(sweepOnRead).toBeUndefined();
    expect(done).toMatchObject({
      state: 'completed',
      attempt: 2,
      result: { finalText: 'Revenue grew 12%.' },
    });
    expect(model.requests).toHaveLength(1);
  });

  it('a run whose job a sweep unlocked while it ran stops at its next heartbeat; the job runs again and completes, never twice at once', async () => {
    // What a sweep does to a live process whose heartbeat came late, here while the job runs:
    // before, the run went on to its end while the job was free for any worker to run again.
    const leaseMs = 3000;
    const jobs = new GraphileJobStore({
      connectionString: POSTGRES_URL,
      schema,
      pollIntervalMs: 200,
    });
    cleanups.push(() => jobs.close());
    const { job, gate } = await parkedJob(jobs, `swept-running-${Date.now()}`, leaseMs, cleanups);
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    const swept = await client.query(
      `update "${schema}"._private_jobs set locked_at = null, locked_by = null
        where key = $1 and locked_at is not null`,
      [job.id],
    );
    await client.end();
    expect(swept.rowCount).toBe(1);
    // The next heartbeat (every leaseMs / 3) finds the job no longer locked by this pool and
    // aborts the run: the gated tool sees its signal and returns.
    const done = await stoppedThenCompleted(jobs, job, gate, leaseMs * 5);
    expect(done).toMatchObject({ state: 'completed', attempt: 2 });
    expect(gate.maxActive()).toBe(1);
  });

  it('killed on its last attempt, the job ends dead with a JOB_LEASE_EXPIRED lastError', async () => {
    const leaseMs = 2000;
    const jobs = store();
    const queue = `last-${Date.now()}`;
    const { job } = await jobs.enqueue({
      queue,
      appName: 'reports',
      userId: 'u1',
      message: userContent('report'),
      maxAttempts: 1,
    });
    const silent = await silentWorker(queue);
    expect(silent.id).toBe(job.id);
    silent.child.kill('SIGKILL');
    await new Promise((resolve) => silent.child.once('exit', resolve));

    const { runner, model } = reportRunner(() => 'Revenue grew 12%.');
    startQueueWorker(jobs, runner, queue, leaseMs, cleanups);
    const dead = await until(
      () => jobs.get(job.id),
      (current) => current?.state !== 'running' && current?.state !== 'pending',
      60_000,
    );
    expect(dead).toMatchObject({
      state: 'dead',
      attempt: 1,
      lastError: { code: 'JOB_LEASE_EXPIRED', message: expect.stringContaining(silent.owner) },
    });
    expect(dead!.finishedAt).toBeGreaterThanOrEqual(dead!.startedAt!);
    expect(model.requests).toHaveLength(0);
    expect(await jobs.list({ queue, state: 'dead' })).toMatchObject([{ id: job.id }]);
  });

  it('a live worker keeps a job that runs for several leaseMs; another worker leaves it alone', async () => {
    // Heartbeats go every leaseMs / 3. With a 600 ms lease, a machine whose two cores were busy
    // delayed them past the lease and the other worker rightly took the job: 2 s leaves room.
    const leaseMs = 2000;
    const queue = `live-${Date.now()}`;
    const { gate, runner, model } = gatedRunner();
    const [first, second] = [store(), store()];
    for (const jobs of [first, second]) startQueueWorker(jobs, runner, queue, leaseMs, cleanups);
    const job = await enqueueLongReport(first, queue);
    await gate.whenActive(1);
    await new Promise((resolve) => setTimeout(resolve, leaseMs * 3));
    expect(await first.get(job.id)).toMatchObject({ state: 'running', attempt: 1 });
    gate.release();
    const done = await until(
      () => first.get(job.id),
      (current) => current?.state === 'completed',
      60_000,
    );
    expect(done).toMatchObject({ attempt: 1 });
    // One run: the model was asked once before the tool call.
    expect(model.requests.filter((request) => !afterToolCall(request))).toHaveLength(1);
    expect(gate.maxActive()).toBe(1);
  });
});
