import { InvalidArgumentError, userContent } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { CronScheduler, InMemoryJobStore, InvalidCronExpressionError, JobWorker } from '../src';
import { ManualClock } from '../src/testing';
import { reportRunner } from './fixtures/agents';

const MINUTE = 60_000;
const job = {
  appName: 'reports',
  userId: 'ops',
  message: userContent('daily report'),
  queue: 'cron',
};
const iso = (time: number) => new Date(time).toISOString();
const settle = () => new Promise((resolve) => setImmediate(resolve));

function setup(cron = '*/10 * * * *', start = Date.parse('2026-03-02T00:00:00Z')) {
  const clock = new ManualClock(start);
  const store = new InMemoryJobStore({ clock });
  const scheduler = new CronScheduler({ store, clock, schedules: [{ name: 'report', cron, job }] });
  const runAts = async () => (await store.list({ queue: 'cron' })).map((j) => iso(j.runAt));
  return { clock, store, scheduler, runAts };
}

describe('CronScheduler', () => {
  it('enqueues each occurrence once, at its time, with a unique key', async () => {
    const { clock, store, scheduler, runAts } = setup();
    const [first] = await scheduler.tick();
    expect(first).toMatchObject({
      runAt: clock.now(),
      uniqueKey: 'cron:report:2026-03-02T00:00:00.000Z',
      appName: 'reports',
      queue: 'cron',
    });
    clock.advance(MINUTE);
    expect(await scheduler.tick()).toEqual([]);
    clock.advance(9 * MINUTE);
    expect(await scheduler.tick()).toHaveLength(1);
    expect(await runAts()).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-02T00:10:00.000Z']);
    expect(await store.list({ queue: 'cron', state: 'pending' })).toHaveLength(2);
  });

  it('never double-enqueues when several schedulers share a store', async () => {
    const { clock, store, runAts } = setup();
    const schedulers = Array.from(
      { length: 3 },
      () =>
        new CronScheduler({
          store,
          clock,
          schedules: [{ name: 'report', cron: '*/10 * * * *', job }],
        }),
    );
    const created = await Promise.all(schedulers.map((scheduler) => scheduler.tick()));
    expect(created.flat()).toHaveLength(1);
    expect(await runAts()).toEqual(['2026-03-02T00:00:00.000Z']);
  });

  it('after downtime enqueues only the latest missed occurrence, and only within catchUpMs', async () => {
    const { clock, scheduler, runAts } = setup();
    await scheduler.tick();
    // Down for two hours and three minutes: twelve occurrences missed, only 02:00 (3 min ago) runs.
    clock.advance(123 * MINUTE);
    expect(await scheduler.tick()).toHaveLength(1);
    expect(await runAts()).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-02T02:00:00.000Z']);
    // Down again until 03:07: 03:00 is seven minutes old, past the 5-minute catch-up: skipped.
    clock.set(Date.parse('2026-03-02T03:07:00Z'));
    expect(await scheduler.tick()).toEqual([]);
    clock.set(Date.parse('2026-03-02T03:10:00Z'));
    expect(await scheduler.tick()).toHaveLength(1);
    expect((await runAts()).at(-1)).toBe('2026-03-02T03:10:00.000Z');
  });

  it('start() ticks at each next occurrence until stop()', async () => {
    const { clock, scheduler, runAts } = setup('* * * * *', Date.parse('2026-03-02T00:00:30Z'));
    scheduler.start();
    await settle();
    expect(await runAts()).toEqual(['2026-03-02T00:00:00.000Z']);
    clock.advance(30_000);
    await settle();
    clock.advance(MINUTE);
    await settle();
    expect(await runAts()).toEqual([
      '2026-03-02T00:00:00.000Z',
      '2026-03-02T00:01:00.000Z',
      '2026-03-02T00:02:00.000Z',
    ]);
    scheduler.stop();
    expect(clock.pendingTimers).toBe(0);
    clock.advance(10 * MINUTE);
    await settle();
    expect(await runAts()).toHaveLength(3);
  });

  it('feeds a worker: the scheduled run happens', async () => {
    const { store, scheduler, clock } = setup();
    const { runner } = reportRunner(() => 'Report sent.');
    const worker = new JobWorker({ store, runners: [runner], clock, queues: { cron: 1 } });
    const [enqueued] = await scheduler.tick();
    await worker.drain();
    expect(await store.get(enqueued!.id)).toMatchObject({
      state: 'completed',
      result: { finalText: 'Report sent.' },
    });
  });

  it('refuses bad schedules when constructed', () => {
    const store = new InMemoryJobStore();
    expect(
      () => new CronScheduler({ store, schedules: [{ name: 'x', cron: '61 * * * *', job }] }),
    ).toThrow(InvalidCronExpressionError);
    const twice = [
      { name: 'x', cron: '* * * * *', job },
      { name: 'x', cron: '0 * * * *', job },
    ];
    expect(() => new CronScheduler({ store, schedules: twice })).toThrow(InvalidArgumentError);
  });
});
