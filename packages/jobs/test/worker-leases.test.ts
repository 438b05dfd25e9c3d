import { userContent } from '@adk/core';
import { afterEach, describe, expect, it } from 'vitest';

import { InMemoryJobStore, JobWorker, subscribeJobEvents, type Job } from '../src';
import { ManualClock } from '../src/testing';
import { afterToolCall, gateTool, recordJobEvents, reportRunner } from './fixtures/agents';

const message = userContent('analyze quarterly report');
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

/** Let pending promise callbacks (store calls started by timers) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function setup(options: { queues?: Record<string, number>; leaseMs?: number } = {}) {
  const clock = new ManualClock();
  const store = new InMemoryJobStore({ clock });
  const gate = gateTool();
  const { runner, model } = reportRunner(
    (request) =>
      afterToolCall(request) ? 'done' : { functionCalls: [{ name: 'wait', args: {} }] },
    { tools: [gate.tool] },
  );
  const worker = new JobWorker({
    store,
    runners: [runner],
    clock,
    workerId: 'w1',
    queues: options.queues ?? { default: 1 },
    leaseMs: options.leaseMs ?? 3000,
  });
  cleanups.push(() => gate.release());
  return { clock, store, gate, runner, model, worker };
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
