import { InvalidArgumentError } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { newQueue, request, texts, type MakeLeasedJobStore } from './conformance-fixtures';
import { ManualClock } from './manual-clock';

/** The maintenance part of the job-store contract (run by `jobStoreConformance`). */
export function jobStorePruneConformance(makeStore: MakeLeasedJobStore): void {
  describe('prune', () => {
    it('deletes finished jobs finished before the given time, and frees their unique keys', async () => {
      const clock = new ManualClock();
      const store = await makeStore(clock);
      const queue = newQueue();
      const result = { finalText: '', eventCount: 1, sessionId: 's' };
      const key = `nightly-${queue}`;
      const done = await store.enqueue(request(queue, 'done', { uniqueKey: key }));
      const dead = await store.enqueue(request(queue, 'dead', { maxAttempts: 1 }));
      const cancelled = await store.enqueue(request(queue, 'cancelled'));
      await store.enqueue(request(queue, 'pending'));
      await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 2 });
      await store.complete({ id: done.job.id, workerId: 'w', result });
      await store.fail({
        id: dead.job.id,
        workerId: 'w',
        error: { name: 'E', message: 'x' },
        retryAt: 0,
      });
      clock.advance(1000);
      await store.cancel(cancelled.job.id);
      const cutoff = clock.now();
      await store.enqueue(request(queue, 'running'));
      await store.claim({ queue, workerId: 'w', leaseMs: 60_000, limit: 5 });

      expect(await store.prune({ queue, finishedBefore: cutoff, states: ['dead'] })).toBe(1);
      expect(await store.prune({ queue, finishedBefore: cutoff })).toBe(1);
      expect(texts(await store.list({ queue }))).toEqual(['cancelled', 'pending', 'running']);
      expect(await store.prune({ queue, finishedBefore: cutoff + 1 })).toBe(1);
      expect(texts(await store.list({ queue }))).toEqual(['pending', 'running']);
      expect(await store.get(done.job.id)).toBeUndefined();
      const other = newQueue();
      const elsewhere = await store.enqueue(request(other, 'elsewhere'));
      await store.cancel(elsewhere.job.id);
      clock.advance(1);
      expect(await store.prune({ queue, finishedBefore: clock.now() })).toBe(0);
      expect(texts(await store.list({ queue: other }))).toEqual(['elsewhere']);
      const again = await store.enqueue(request(queue, 'again', { uniqueKey: key }));
      expect(again.created).toBe(true);
    });

    it('refuses to prune unfinished states, and bad list limits', async () => {
      const store = await makeStore(new ManualClock());
      const queue = newQueue();
      await store.enqueue(request(queue));
      const states = ['pending'] as unknown as ['dead'];
      await expect(store.prune({ finishedBefore: Date.now(), states })).rejects.toSatisfy(
        InvalidArgumentError.isInstance,
      );
      await expect(store.prune({ finishedBefore: Number.NaN })).rejects.toSatisfy(
        InvalidArgumentError.isInstance,
      );
      await expect(store.list({ queue, limit: 0 })).rejects.toSatisfy(
        InvalidArgumentError.isInstance,
      );
      expect(await store.list({ queue })).toHaveLength(1);
    });
  });
}
