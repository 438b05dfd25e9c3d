import { userContent } from '@adk/core';
import type { FakeStep } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { InMemoryJobStore, JobWorker, subscribeJobEvents, type Job } from '../src';
import { ManualClock } from '../src/testing';
import { gatedRunner, recordJobEvents } from './fixtures/agents';

const message = userContent('analyze quarterly report');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** Let pending promise callbacks (store calls started by timers) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

interface SetupOptions {
  queues?: Record<string, number>;
  leaseMs?: number;
  /** The model's answer once the gate opened (default `done`). */
  afterGate?: FakeStep;
  /**
   * The store keeps its own time: its leases expire when the test advances `storeClock`, while the
   * worker's renewal timers never fire (a worker stalled past its lease).
   */
  stalled?: boolean;
}

function setup(options: SetupOptions = {}) {
  const clock = new ManualClock();
  const storeClock = options.stalled ? new ManualClock() : clock;
  const store = new InMemoryJobStore({ clock: storeClock });
  const { gate, runner, model } = gatedRunner(options.afterGate);
  const worker = new JobWorker({
    store,
    runners: [runner],
    clock,
    workerId: 'w1',
    queues: options.queues ?? { default: 1 },
    leaseMs: options.leaseMs ?? 3000,
  });
  cleanups.push(() => gate.release());
  return { clock, storeClock, store, gate, runner, model, worker };
}

const count = (jobs: Job[], queue: string) => jobs.filter((job) => job.queue === queue).length;

describe('JobWorker concurrency, leases and stop', () => {
  it('runs at most each queue’s concurrency at once, and that many together', async () => {
    const { store, gate, worker } = setup({ queues: { default: 2, bulk: 1 } });
    for (let i = 0; i < 3; i++) await store.enqueue({ appName: 'reports', userId: 'u1', message });
    for (let i = 0; i < 2; i++)
      await store.enqueue({ appName: 'reports', userId: 'u1', message, queue: 'bulk' });
    expect(await worker.poll()).toBe(3);
    // The gate opens only once three runs wait in it: two default jobs and one bulk job run together.
    await gate.whenActive(3);
    const running = await store.list({ state: 'running' });
    expect([count(running, 'default'), count(running, 'bulk')]).toEqual([2, 1]);
    expect(await worker.poll()).toBe(0);
    expect(worker.running).toBe(3);
    gate.release();
    await worker.drain();
    expect(await store.list({ state: 'completed' })).toHaveLength(5);
    expect(gate.maxActive()).toBe(3);
  });

  it('runs a crashed worker’s job again once its lease expires', async () => {
    const { clock, store, gate, worker } = setup();
    gate.release();
    const { job } = await store.enqueue({ appName: 'reports', userId: 'u1', message });
    await store.claim({ queue: 'default', workerId: 'crashed', leaseMs: 10_000, limit: 1 });
    await worker.drain();
    expect((await store.get(job.id))?.leaseOwner).toBe('crashed');
    clock.advance(10_000);
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({ state: 'completed', attempt: 2 });
  });

  it('renews the lease of a long run, and aborts the run when the lease is refused', async () => {
    const { clock, store, gate, worker } = setup({ leaseMs: 3000 });
    const recorder = recordJobEvents(['released', 'completed']);
    cleanups.push(recorder.stop);
    const { job } = await store.enqueue({ appName: 'reports', userId: 'u1', message });
    await worker.poll();
    await gate.whenActive(1);
    for (let i = 0; i < 6; i++) {
      clock.advance(1000);
      await settle();
      expect((await store.get(job.id))?.leaseExpiresAt).toBe(clock.now() + 3000);
    }
    // Twice the lease length later the job is still this worker's.
    expect(
      await store.claim({ queue: 'default', workerId: 'w2', leaseMs: 1000, limit: 1 }),
    ).toEqual([]);
    await store.cancel(job.id);
    clock.advance(1000);
    await worker.idle();
    expect(gate.active()).toBe(0);
    expect((await store.get(job.id))?.state).toBe('cancelled');
    expect(recorder.log).toEqual([`released:${job.id}`]);
    expect(recorder.messages[0]?.message).toMatchObject({ reason: 'lease-lost' });
  });

  it('stop() aborts the run in flight and puts its job back, attempt not counted', async () => {
    const { store, gate, worker, runner } = setup();
    const recorder = recordJobEvents(['released']);
    cleanups.push(recorder.stop);
    const { job } = await store.enqueue({ appName: 'reports', userId: 'u1', message });
    await worker.poll();
    await gate.whenActive(1);
    await worker.stop();
    expect(gate.active()).toBe(0);
    expect(worker.running).toBe(0);
    expect(await store.get(job.id)).toMatchObject({ state: 'pending', attempt: 0 });
    expect(recorder.messages.map(({ message }) => message)).toMatchObject([{ reason: 'stopping' }]);
    expect(await worker.poll()).toBe(0);
    gate.release();
    const next = new JobWorker({ store, runners: [runner], workerId: 'w2' });
    await next.drain();
    expect(await store.get(job.id)).toMatchObject({ state: 'completed', attempt: 1 });
  });

  it('start() polls on its timer and whenever a run ends', async () => {
    const { clock, store, gate, worker } = setup({ queues: { default: 1 } });
    gate.release();
    const completed: string[] = [];
    let onCompleted = () => {};
    cleanups.push(
      subscribeJobEvents('completed', ({ job }) => {
        completed.push(job.id);
        onCompleted();
      }),
    );
    const whenCompleted = (n: number) =>
      new Promise<void>((resolve) => {
        onCompleted = () => completed.length >= n && resolve();
        onCompleted();
      });
    worker.start();
    cleanups.push(() => void worker.stop());
    const first = await store.enqueue({ appName: 'reports', userId: 'u1', message, runIn: 5000 });
    const second = await store.enqueue({ appName: 'reports', userId: 'u1', message, runIn: 5000 });
    await settle();
    expect(completed).toEqual([]);
    for (let second = 0; second < 5; second++) {
      clock.advance(1000);
      await settle();
    }
    // One slot: the second job starts when the first ends, without waiting for the timer.
    await whenCompleted(2);
    expect(completed).toEqual([first.job.id, second.job.id]);
    await worker.stop();
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('JobWorker when the store refuses the outcome of an attempt', () => {
  /** Start one job in worker w1, stall it past its lease, and let `w2` claim the queue. */
  async function stalledJob(options: SetupOptions & { maxAttempts?: number } = {}) {
    const setupResult = setup({ ...options, stalled: true });
    const { storeClock, store, gate, worker } = setupResult;
    const recorder = recordJobEvents([
      'started',
      'completed',
      'failed',
      'retrying',
      'dead',
      'released',
    ]);
    cleanups.push(recorder.stop);
    const { job } = await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message,
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    });
    expect(await worker.poll()).toBe(1);
    await gate.whenActive(1);
    storeClock.advance(3000);
    const taken = await store.claim({
      queue: 'default',
      workerId: 'w2',
      leaseMs: 60_000,
      limit: 1,
    });
    return { ...setupResult, job, recorder, taken };
  }

  it('publishes released (lease-lost) when the result of a run whose lease was taken is refused', async () => {
    const { store, gate, worker, job, recorder, taken } = await stalledJob();
    expect(taken).toMatchObject([{ id: job.id, attempt: 2, leaseOwner: 'w2' }]);
    gate.release();
    await worker.idle();
    // The late result changed nothing: the job is w2's.
    const stored = await store.get(job.id);
    expect(stored).toMatchObject({ state: 'running', attempt: 2, leaseOwner: 'w2' });
    expect(stored?.result).toBeUndefined();
    expect(recorder.log).toEqual([`started:${job.id}`, `released:${job.id}`]);
    expect(recorder.messages[1]?.message).toMatchObject({
      workerId: 'w1',
      reason: 'lease-lost',
      job: { id: job.id, attempt: 1 },
    });
  });

  it('publishes released (lease-lost) when the failure of such a run is refused', async () => {
    const { store, gate, worker, job, recorder } = await stalledJob({
      afterGate: new Error('model overloaded'),
    });
    gate.release();
    await worker.idle();
    const stored = await store.get(job.id);
    expect(stored).toMatchObject({ state: 'running', attempt: 2, leaseOwner: 'w2' });
    expect(stored?.lastError).toBeUndefined();
    expect(recorder.log).toEqual([`started:${job.id}`, `released:${job.id}`]);
    expect(recorder.messages[1]?.message).toMatchObject({ workerId: 'w1', reason: 'lease-lost' });
  });

  it('publishes released (lease-lost), not stopping, when stop() cannot give the job back', async () => {
    const { store, worker, job, recorder } = await stalledJob();
    await worker.stop();
    expect(await store.get(job.id)).toMatchObject({ state: 'running', leaseOwner: 'w2' });
    expect(recorder.log).toEqual([`started:${job.id}`, `released:${job.id}`]);
    expect(recorder.messages[1]?.message).toMatchObject({ workerId: 'w1', reason: 'lease-lost' });
  });

  it('a job buried by another claim is published dead for the worker whose lease expired', async () => {
    const { store, gate, worker, job, recorder, taken } = await stalledJob({ maxAttempts: 1 });
    expect(taken).toEqual([]);
    const dead = await store.get(job.id);
    expect(dead).toMatchObject({ state: 'dead', lastError: { code: 'JOB_LEASE_EXPIRED' } });
    expect(recorder.log).toEqual([`started:${job.id}`, `dead:${job.id}`]);
    expect(recorder.messages[1]?.message).toEqual({ job: dead, workerId: 'w1' });
    // The stalled run ends later: its result is refused, and the attempt ends for w1 too.
    gate.release();
    await worker.idle();
    expect((await store.get(job.id))?.state).toBe('dead');
    expect(recorder.log).toEqual([`started:${job.id}`, `dead:${job.id}`, `released:${job.id}`]);
    expect(recorder.messages[2]?.message).toMatchObject({ workerId: 'w1', reason: 'lease-lost' });
  });
});
