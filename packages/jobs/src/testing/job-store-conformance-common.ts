import { InvalidArgumentError } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { newQueue, request, texts, type MakeJobStore } from './conformance-fixtures';
import { ManualClock } from './manual-clock';

/** The part of the contract every store fulfils (enqueue, get, list, cancel, dedupe). */
export function commonJobStoreConformance(makeStore: MakeJobStore): void {
  describe('every store: enqueue, get, list, cancel', () => {
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
        // Beyond the range of a Date: such a job would never run, nor could its runAt be shown.
        request(queue, 'x', { runIn: 8.64e15 }),
        request(queue, 'x', { runAt: 8.64e15 + 1 }),
        request(queue, 'x', { queue: '' }),
        request(queue, 'x', { stateDelta: [] as unknown as Record<string, unknown> }),
      ];
      for (const input of bad) {
        await expect(store.enqueue(input)).rejects.toSatisfy(InvalidArgumentError.isInstance);
      }
      expect(await store.list({ queue })).toEqual([]);
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

    it('cancels a pending job once; it is never run and lists as cancelled', async () => {
      const { store, queue } = await setup();
      const { job } = await store.enqueue(request(queue, 'pending'));
      const cancelled = await store.cancel(job.id);
      expect(cancelled).toMatchObject({ id: job.id, state: 'cancelled' });
      expect(cancelled?.finishedAt).toEqual(expect.any(Number));
      expect(await store.cancel(job.id)).toBeUndefined();
      expect(await store.cancel('no-such-job')).toBeUndefined();
      expect((await store.get(job.id))?.state).toBe('cancelled');
      expect(texts(await store.list({ queue, state: 'cancelled' }))).toEqual(['pending']);
      expect(await store.list({ queue, state: 'pending' })).toEqual([]);
    });

    it('lists pending jobs by queue and app, oldest first, up to the limit', async () => {
      const { store, queue } = await setup();
      const other = newQueue();
      await store.enqueue(request(queue, 'a'));
      await store.enqueue(request(queue, 'b', { appName: 'other-app' }));
      await store.enqueue(request(other, 'c'));
      await store.enqueue(request(queue, 'd', { priority: 3 }));
      expect(texts(await store.list({ queue }))).toEqual(['a', 'b', 'd']);
      expect(texts(await store.list({ queue, state: 'pending' }))).toEqual(['a', 'b', 'd']);
      expect(texts(await store.list({ queue, appName: 'other-app' }))).toEqual(['b']);
      expect(texts(await store.list({ queue, limit: 2 }))).toEqual(['a', 'b']);
      expect(texts(await store.list({ queue: other }))).toEqual(['c']);
      await expect(store.list({ queue, limit: 0 })).rejects.toSatisfy(
        InvalidArgumentError.isInstance,
      );
    });
  });
}
