import { describe, expect, it } from 'vitest';

import { subscribeJobEvents, type JobDeadMessage } from '../diagnostics/job-channels';
import { newQueue, request, type MakeLeasedJobStore } from './conformance-fixtures';
import { ManualClock } from './manual-clock';

/** The lease part of the job-store contract (run by `jobStoreConformance`). */
export function jobStoreLeaseConformance(makeStore: MakeLeasedJobStore): void {
  describe('leases', () => {
    const setup = async () => {
      const clock = new ManualClock();
      return { clock, store: await makeStore(clock), queue: newQueue() };
    };
    const result = { finalText: 'done', eventCount: 2, sessionId: 's' };

    it('renews a lease for its owner only', async () => {
      const { clock, store, queue } = await setup();
      const { job } = await store.enqueue(request(queue));
      await store.claim({ queue, workerId: 'w1', leaseMs: 1000, limit: 1 });
      clock.advance(900);
      expect(await store.extendLease({ id: job.id, workerId: 'w1', leaseMs: 1000 })).toBe(true);
      expect((await store.get(job.id))?.leaseExpiresAt).toBe(clock.now() + 1000);
      expect(await store.extendLease({ id: job.id, workerId: 'w2', leaseMs: 1000 })).toBe(false);
      clock.advance(900);
      // Renewed: still leased at 1800 ms although the first lease ended at 1000 ms.
      expect(await store.claim({ queue, workerId: 'w2', leaseMs: 1000, limit: 1 })).toEqual([]);
    });

    it('gives a crashed worker’s job to another worker once its lease expires', async () => {
      const { clock, store, queue } = await setup();
      const { job } = await store.enqueue(request(queue));
      await store.claim({ queue, workerId: 'crashed', leaseMs: 1000, limit: 1 });
      clock.advance(999);
      expect(await store.claim({ queue, workerId: 'w2', leaseMs: 1000, limit: 1 })).toEqual([]);
      clock.advance(1);
      const [again] = await store.claim({ queue, workerId: 'w2', leaseMs: 1000, limit: 1 });
      expect(again).toMatchObject({ id: job.id, state: 'running', attempt: 2, leaseOwner: 'w2' });
      // The first worker lost the job: its late reports change nothing.
      expect(await store.complete({ id: job.id, workerId: 'crashed', result })).toBeUndefined();
      const error = { name: 'Error', message: 'late' };
      expect(
        await store.fail({ id: job.id, workerId: 'crashed', error, retryAt: 0 }),
      ).toBeUndefined();
      expect(await store.release({ id: job.id, workerId: 'crashed' })).toBeUndefined();
      expect(await store.extendLease({ id: job.id, workerId: 'crashed', leaseMs: 1 })).toBe(false);
      expect(await store.get(job.id)).toMatchObject({ state: 'running', leaseOwner: 'w2' });
      expect(await store.complete({ id: job.id, workerId: 'w2', result })).toMatchObject({
        state: 'completed',
        attempt: 2,
      });
    });

    it('lets the owner finish after its lease expired while nobody took the job', async () => {
      const { clock, store, queue } = await setup();
      const { job } = await store.enqueue(request(queue));
      await store.claim({ queue, workerId: 'slow', leaseMs: 1000, limit: 1 });
      clock.advance(5000);
      expect(await store.complete({ id: job.id, workerId: 'slow', result })).toMatchObject({
        state: 'completed',
      });
    });

    it('buries a job whose lease expired on its last attempt instead of running it again', async () => {
      const { clock, store, queue } = await setup();
      const { job } = await store.enqueue(request(queue, 'poison', { maxAttempts: 1 }));
      await store.claim({ queue, workerId: 'crashed', leaseMs: 1000, limit: 1 });
      clock.advance(1000);
      const published: JobDeadMessage[] = [];
      const unsubscribe = subscribeJobEvents('dead', (message) => {
        if (message.job.id === job.id) published.push(message);
      });
      try {
        expect(await store.claim({ queue, workerId: 'w2', leaseMs: 1000, limit: 1 })).toEqual([]);
        // Buried once: a later claim neither revives nor announces it again.
        expect(await store.claim({ queue, workerId: 'w3', leaseMs: 1000, limit: 1 })).toEqual([]);
      } finally {
        unsubscribe();
      }
      const dead = await store.get(job.id);
      expect(dead).toMatchObject({
        state: 'dead',
        attempt: 1,
        finishedAt: clock.now(),
        lastError: { code: 'JOB_LEASE_EXPIRED', message: expect.stringContaining('"crashed"') },
      });
      expect(dead?.leaseOwner).toBeUndefined();
      // Published with the worker whose lease expired, so observers end that attempt.
      expect(published).toEqual([{ job: dead, workerId: 'crashed' }]);
    });
  });
}
