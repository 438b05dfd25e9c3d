import { InvalidArgumentError } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { newQueue, request, texts, type MakeJobStore } from './conformance-fixtures';
import { jobStoreLeaseConformance } from './job-store-conformance-leases';
import { jobStorePruneConformance } from './job-store-conformance-prune';
import { ManualClock } from './manual-clock';

const HOUR = 3_600_000;

/**
 * The job-store contract as a vitest suite. Run it against every implementation:
 *
 * @example
 * ```ts
 * import { jobStoreConformance } from '@adk/jobs/testing/vitest';
 * jobStoreConformance('InMemoryJobStore', (clock) => new InMemoryJobStore({ clock }));
 * ```
 *
 * `makeStore` is called once per test with a fresh `ManualClock`; every test uses its own queue
 * names, so stores sharing one database do not see each other's jobs.
 */
export function jobStoreConformance(label: string, makeStore: MakeJobStore): void {
  describe(`JobStore conformance: ${label}`, () => {
    const setup = async () => {
      const clock = new ManualClock();
      return { clock, store: await makeStore(clock), queue: newQueue() };
    };

    it('enqueues a pending job with its fields and defaults, readable by id', async () => {
      const { clock, store, queue } = await setup();
      const { job, created } = await store.enqueue(
        request(queue, 'héllo 👋', {
          sessionId: 's1',
          stateDelta: { topic: 'q3', nested: { a: [1, 'b'] } },
        }),
      );
      expect(created).toBe(true);
      expect(job).toMatchObject({
        queue,
        priority: 0,
        appName: 'reports',
        userId: 'u1',
        sessionId: 's1',
        message: { role: 'user', parts: [{ text: 'héllo 👋' }] },
        stateDelta: { topic: 'q3', nested: { a: [1, 'b'] } },
        state: 'pending',
        runAt: clock.now(),
        attempt: 0,
        maxAttempts: 5,
        createdAt: clock.now(),
      });
      expect(job.lastError).toBeUndefined();
      expect(job.result).toBeUndefined();
      expect(await store.get(job.id)).toEqual(job);
      expect(await store.get('no-such-job')).toBeUndefined();
      const other = await store.enqueue(request(queue));
      expect(other.job.id).not.toBe(job.id);
      expect(other.job.sessionId).toBeUndefined();
      expect(other.job.stateDelta).toBeUndefined();
    });

    it('refuses malformed requests with InvalidArgumentError and stores nothing', async () => {
      const { store, queue } = await setup();
      const bad = [
        request(queue, 'x', { appName: '' }),
        request(queue, 'x', { userId: undefined as unknown as string }),
        { ...request(queue), message: { role: 'user', parts: [] } },
        request(queue, 'x', { priority: 1.5 }),
        request(queue, 'x', { maxAttempts: 0 }),
        request(queue, 'x', { runIn: -1 }),
        request(queue, 'x', { runAt: 1, runIn: 1 }),
        request(queue, 'x', { queue: '' }),
        request(queue, 'x', { stateDelta: [] as unknown as Record<string, unknown> }),
      ];
      for (const input of bad) {
        await expect(store.enqueue(input)).rejects.toSatisfy(InvalidArgumentError.isInstance);
      }
      expect(await store.list({ queue })).toEqual([]);
      await expect(
        store.claim({ queue, workerId: 'w', leaseMs: 1000, limit: 0 }),
      ).rejects.toSatisfy(InvalidArgumentError.isInstance);
    });

    it('holds a job until its runAt or runIn', async () => {
      const { clock, store, queue } = await setup();
      const inHour = await store.enqueue(request(queue, 'later', { runIn: HOUR }));
      const at = await store.enqueue(request(queue, 'at', { runAt: clock.now() + 2 * HOUR }));
      expect(inHour.job.runAt).toBe(clock.now() + HOUR);
      const claim = () => store.claim({ queue, workerId: 'w', leaseMs: 10 * HOUR, limit: 10 });
      expect(await claim()).toEqual([]);
      clock.advance(HOUR - 1);
      expect(await claim()).toEqual([]);
      clock.advance(1);
      expect(texts(await claim())).toEqual(['later']);
      clock.advance(HOUR);
      const [claimed] = await claim();
      expect(claimed?.id).toBe(at.job.id);
    });

    it('claims by priority, then runAt, then enqueue order, up to the limit, in its queue only', async () => {
      const { clock, store, queue } = await setup();
      const start = clock.now();
      await store.enqueue(request(queue, 'bulk', { priority: 9 }));
      await store.enqueue(request(queue, 'default-1'));
      await store.enqueue(request(queue, 'default-2'));
      await store.enqueue(request(queue, 'critical', { priority: -1, runAt: start - 10 }));
      await store.enqueue(request(queue, 'default-earlier', { runAt: start - 5 }));
      await store.enqueue(request(newQueue(), 'other queue', { priority: -100 }));
      const first = await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 3 });
      expect(texts(first)).toEqual(['critical', 'default-earlier', 'default-1']);
      for (const job of first) {
        expect(job).toMatchObject({
          state: 'running',
          attempt: 1,
          leaseOwner: 'w',
          leaseExpiresAt: start + 60_000,
          startedAt: start,
        });
      }
      const rest = await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 10 });
      expect(texts(rest)).toEqual(['default-2', 'bulk']);
      expect(await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 10 })).toEqual([]);
    });

    it('never hands one job to two concurrent claims', async () => {
      const { store, queue } = await setup();
      for (let i = 0; i < 12; i++) await store.enqueue(request(queue, `job-${i}`));
      const batches = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          store.claim({ queue, workerId: `w${i}`, leaseMs: 60_000, limit: 3 }),
        ),
      );
      const ids = batches.flat().map((job) => job.id);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
    });

    it('completes a running job with its result; the result is stored', async () => {
      const { clock, store, queue } = await setup();
      const { job } = await store.enqueue(request(queue));
      await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 1 });
      clock.advance(500);
      const result = { finalText: 'Revenue grew 12%.', eventCount: 3, sessionId: 'job-x' };
      const done = await store.complete({ id: job.id, workerId: 'w', result });
      expect(done).toMatchObject({ state: 'completed', result, finishedAt: clock.now() });
      expect(done?.leaseOwner).toBeUndefined();
      expect(await store.get(job.id)).toEqual(done);
      expect(await store.complete({ id: job.id, workerId: 'w', result })).toBeUndefined();
      expect(await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 1 })).toEqual([]);
    });

    it('retries a failed attempt at retryAt, then marks it dead after maxAttempts', async () => {
      const { clock, store, queue } = await setup();
      const { job } = await store.enqueue(request(queue, 'flaky', { maxAttempts: 2 }));
      const claim = () => store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 1 });
      await claim();
      const error = { name: 'ModelError', message: 'overloaded', code: 'MODEL_ERROR' };
      const retrying = await store.fail({
        id: job.id,
        workerId: 'w',
        error,
        retryAt: clock.now() + 10_000,
      });
      expect(retrying).toMatchObject({
        state: 'pending',
        attempt: 1,
        lastError: error,
        runAt: clock.now() + 10_000,
      });
      expect(retrying?.finishedAt).toBeUndefined();
      expect(await claim()).toEqual([]);
      clock.advance(10_000);
      const [second] = await claim();
      expect(second).toMatchObject({ id: job.id, attempt: 2 });
      const error2 = { name: 'TypeError', message: 'boom' };
      const dead = await store.fail({
        id: job.id,
        workerId: 'w',
        error: error2,
        retryAt: clock.now() + 1,
      });
      expect(dead).toMatchObject({
        state: 'dead',
        attempt: 2,
        lastError: error2,
        finishedAt: clock.now(),
      });
      clock.advance(HOUR);
      expect(await claim()).toEqual([]);
      expect(texts(await store.list({ queue, state: 'dead' }))).toEqual(['flaky']);
    });

    it('releases a job unrun: pending, due now, attempt not counted', async () => {
      const { clock, store, queue } = await setup();
      const { job } = await store.enqueue(request(queue, 'x', { runAt: clock.now() - 1000 }));
      await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 1 });
      clock.advance(50);
      const released = await store.release({ id: job.id, workerId: 'w' });
      expect(released).toMatchObject({ state: 'pending', attempt: 0, runAt: clock.now() });
      expect(released?.leaseOwner).toBeUndefined();
      const [again] = await store.claim({ queue, workerId: 'w2', leaseMs: 60_000, limit: 1 });
      expect(again).toMatchObject({ id: job.id, attempt: 1, leaseOwner: 'w2' });
    });

    it('cancels pending and running jobs, not finished ones', async () => {
      const { store, queue } = await setup();
      const pending = await store.enqueue(request(queue, 'pending'));
      expect(await store.cancel(pending.job.id)).toMatchObject({ state: 'cancelled' });
      expect(await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 5 })).toEqual([]);
      const running = await store.enqueue(request(queue, 'running'));
      await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 5 });
      expect(await store.cancel(running.job.id)).toMatchObject({ state: 'cancelled' });
      expect(await store.extendLease({ id: running.job.id, workerId: 'w', leaseMs: 1000 })).toBe(
        false,
      );
      const result = { finalText: '', eventCount: 1, sessionId: 's' };
      expect(await store.complete({ id: running.job.id, workerId: 'w', result })).toBeUndefined();
      expect((await store.get(running.job.id))?.state).toBe('cancelled');
      expect(await store.cancel(running.job.id)).toBeUndefined();
      expect(await store.cancel('no-such-job')).toBeUndefined();
    });

    it('deduplicates by unique key: the second enqueue returns the first job', async () => {
      const { store, queue } = await setup();
      const key = `report-${queue}`;
      const first = await store.enqueue(request(queue, 'first', { uniqueKey: key }));
      const second = await store.enqueue(request(queue, 'second', { uniqueKey: key }));
      expect(second.created).toBe(false);
      expect(second.job).toEqual(first.job);
      const racing = await Promise.all(
        Array.from({ length: 5 }, () =>
          store.enqueue(request(queue, 'race', { uniqueKey: `${key}-race` })),
        ),
      );
      expect(racing.filter((result) => result.created)).toHaveLength(1);
      expect(new Set(racing.map((result) => result.job.id)).size).toBe(1);
      expect(texts(await store.list({ queue }))).toEqual(['first', 'race']);
    });

    it('lists by state, queue and app, oldest first, up to the limit', async () => {
      const { store, queue } = await setup();
      const other = newQueue();
      await store.enqueue(request(queue, 'a'));
      await store.enqueue(request(queue, 'b', { appName: 'other-app' }));
      await store.enqueue(request(other, 'c'));
      await store.enqueue(request(queue, 'd'));
      await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 1 });
      expect(texts(await store.list({ queue }))).toEqual(['a', 'b', 'd']);
      expect(texts(await store.list({ queue, state: 'running' }))).toEqual(['a']);
      expect(texts(await store.list({ queue, state: 'pending' }))).toEqual(['b', 'd']);
      expect(texts(await store.list({ queue, appName: 'other-app' }))).toEqual(['b']);
      expect(texts(await store.list({ queue, limit: 2 }))).toEqual(['a', 'b']);
      expect(texts(await store.list({ queue: other }))).toEqual(['c']);
    });

    jobStoreLeaseConformance(makeStore);
    jobStorePruneConformance(makeStore);
  });
}
