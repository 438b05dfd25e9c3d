import {
  FunctionTool,
  InMemorySessionService,
  LlmAgent,
  Runner,
  type LlmRequest,
  type Tool,
} from '@adk/core';
import { FakeModel, type FakeStep } from '@adk/core/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { subscribeJobEvents, type JobChannelKey } from '../diagnostics/job-channels';
import type { Job, JobState } from '../store/job';
import type { QueueEngineJobStore } from '../store/queue-engine';
import { JobWorker } from '../worker/job-worker';
import { newQueue, request } from './conformance-fixtures';
import type { ManualClock } from './manual-clock';

/** Makes a queue-engine store; called once per test. */
export type MakeQueueEngineStore = (
  clock: ManualClock,
) => Promise<QueueEngineJobStore> | QueueEngineJobStore;

const WAIT_MS = 15_000;

function asked(request: LlmRequest): string {
  const user = request.contents.find((content) => content.role === 'user');
  return user?.parts[0]?.text ?? '';
}

function runnerFor(respond: (request: LlmRequest) => FakeStep, tools: Tool[] = []): Runner {
  const model = new FakeModel({ responses: respond });
  const agent = new LlmAgent({ name: 'analyst', model, tools });
  return new Runner({ appName: 'reports', agent, sessionService: new InMemorySessionService() });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function stateOf(
  store: QueueEngineJobStore,
  id: string,
  state: JobState,
): Promise<Job | undefined> {
  return until(
    () => store.get(id),
    (job) => job?.state === state,
  );
}

/** A tool `wait` that blocks until its signal aborts; `started` resolves at the first call. */
function blockingTool(): { tool: Tool; started: Promise<void> } {
  let arrived!: () => void;
  const started = new Promise<void>((resolve) => (arrived = resolve));
  const tool = new FunctionTool<Record<string, never>>({
    name: 'wait',
    description: 'Waits until aborted.',
    execute: async (_args, context) => {
      arrived();
      await new Promise((resolve) =>
        context.signal.addEventListener('abort', resolve, { once: true }),
      );
      return { ok: true };
    },
  });
  return { tool, started };
}

function recordEvents(kinds: readonly JobChannelKey[]) {
  const log: string[] = [];
  const stops = kinds.map((kind) =>
    subscribeJobEvents(kind, (message) => log.push(`${kind}:${message.job.id}`)),
  );
  return { log, stop: () => stops.forEach((stop) => stop()) };
}

/**
 * The queue-engine part of the contract (`QueueEngineJobStore`), run by `jobStoreConformance`: a
 * real `JobWorker` runs the jobs the engine pushes, in real time.
 */
export function queueEngineConformance(makeStore: MakeQueueEngineStore): void {
  describe('queue engine: jobs pushed to a JobWorker', () => {
    const cleanups: (() => Promise<void> | void)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    const setup = async (runner: Runner, concurrency = 1) => {
      const { ManualClock } = await import('./manual-clock');
      const store = await makeStore(new ManualClock(Date.now()));
      const queue = newQueue();
      const worker = new JobWorker({
        store,
        runners: [runner],
        queues: { [queue]: concurrency },
        leaseMs: 3000,
        backoff: () => 200,
        onError: () => undefined,
      });
      cleanups.push(() => worker.stop());
      return { store, queue, worker };
    };

    it('runs a pushed job once and stores its result', async () => {
      const runs: string[] = [];
      const runner = runnerFor((req) => {
        runs.push(asked(req));
        return 'Revenue grew 12%.';
      });
      const { store, queue, worker } = await setup(runner);
      const events = recordEvents(['started', 'completed']);
      cleanups.push(events.stop);
      worker.start();
      const { job } = await store.enqueue(request(queue, 'report', { runAt: Date.now() }));
      const done = await stateOf(store, job.id, 'completed');
      expect(done).toMatchObject({
        id: job.id,
        attempt: 1,
        result: { finalText: 'Revenue grew 12%.', eventCount: 2, sessionId: `job-${job.id}` },
      });
      expect(done?.finishedAt).toEqual(expect.any(Number));
      expect(runs).toEqual(['report']);
      expect(events.log).toEqual([`started:${job.id}`, `completed:${job.id}`]);
    });

    it('runs the lowest priority number first, and holds a job until its runAt', async () => {
      const runs: string[] = [];
      const runner = runnerFor((req) => {
        runs.push(asked(req));
        return 'ok';
      });
      const { store, queue, worker } = await setup(runner);
      const now = Date.now();
      await store.enqueue(request(queue, 'bulk', { priority: 9, runAt: now }));
      await store.enqueue(request(queue, 'urgent', { priority: 0, runAt: now }));
      await store.enqueue(request(queue, 'normal', { priority: 5, runAt: now }));
      const later = await store.enqueue(request(queue, 'later', { runIn: 1500 }));
      worker.start();
      await until(
        async () => runs.length,
        (count) => count === 3,
      );
      expect(runs).toEqual(['urgent', 'normal', 'bulk']);
      expect((await store.get(later.job.id))?.state).toBe('pending');
      const done = await stateOf(store, later.job.id, 'completed');
      expect(done?.startedAt ?? 0).toBeGreaterThanOrEqual(later.job.runAt - 50);
      expect(runs).toEqual(['urgent', 'normal', 'bulk', 'later']);
    });

    it('retries a failing run, then marks it dead after maxAttempts', async () => {
      const runner = runnerFor(() => new Error('model overloaded'));
      const { store, queue, worker } = await setup(runner);
      const events = recordEvents(['failed', 'retrying', 'dead']);
      cleanups.push(events.stop);
      worker.start();
      const { job } = await store.enqueue(request(queue, 'flaky', { maxAttempts: 2 }));
      const dead = await stateOf(store, job.id, 'dead');
      expect(dead).toMatchObject({ attempt: 2, maxAttempts: 2 });
      expect(dead?.lastError).toMatchObject({ name: 'ErrorEvent', code: 'MODEL_ERROR' });
      expect(events.log).toEqual([
        `failed:${job.id}`,
        `retrying:${job.id}`,
        `failed:${job.id}`,
        `dead:${job.id}`,
      ]);
    }, 30_000);

    it('cancelling a running job aborts its run and refuses its outcome', async () => {
      const blocking = blockingTool();
      const runner = runnerFor(
        (req) =>
          req.contents.at(-1)?.parts.some((part) => part.functionResponse)
            ? 'done'
            : { functionCalls: [{ name: 'wait', args: {} }] },
        [blocking.tool],
      );
      const { store, queue, worker } = await setup(runner);
      const events = recordEvents(['released']);
      cleanups.push(events.stop);
      worker.start();
      const { job } = await store.enqueue(request(queue, 'long'));
      await blocking.started;
      expect((await store.get(job.id))?.state).toBe('running');
      expect(await store.cancel(job.id)).toMatchObject({ state: 'cancelled' });
      await until(
        async () => events.log.length,
        (count) => count === 1,
      );
      expect(events.log).toEqual([`released:${job.id}`]);
      expect((await store.get(job.id))?.state).toBe('cancelled');
      expect(worker.running).toBe(0);
    });

    it('stop() gives a running job back unrun; another worker completes it', async () => {
      const blocking = blockingTool();
      let calls = 0;
      const runner = runnerFor(
        (req) => {
          if (req.contents.at(-1)?.parts.some((part) => part.functionResponse)) return 'done';
          calls++;
          return calls === 1 ? { functionCalls: [{ name: 'wait', args: {} }] } : 'done';
        },
        [blocking.tool],
      );
      const { store, queue, worker } = await setup(runner);
      worker.start();
      const { job } = await store.enqueue(request(queue, 'long'));
      await blocking.started;
      await worker.stop();
      expect(await store.get(job.id)).toMatchObject({ state: 'pending', attempt: 0 });
      const next = new JobWorker({ store, runners: [runner], queues: { [queue]: 1 } });
      cleanups.push(() => next.stop());
      await next.drain();
      expect(await store.get(job.id)).toMatchObject({ state: 'completed', attempt: 1 });
    });

    it('drain() resolves once no job is due or running; prune deletes finished jobs', async () => {
      const runner = runnerFor(() => 'ok');
      const { store, queue, worker } = await setup(runner, 3);
      const key = `nightly-${queue}`;
      const first = await store.enqueue(request(queue, 'a', { uniqueKey: key }));
      await store.enqueue(request(queue, 'b'));
      const cancelled = await store.enqueue(request(queue, 'c', { runIn: 60_000 }));
      await store.cancel(cancelled.job.id);
      await worker.drain();
      const states = (await store.list({ queue })).map((job) => job.state).toSorted();
      expect(states).toEqual(['cancelled', 'completed', 'completed']);
      const again = await store.enqueue(request(queue, 'a again', { uniqueKey: key }));
      expect(again).toMatchObject({ created: false, job: { id: first.job.id } });
      expect(await store.prune({ queue, finishedBefore: Date.now() + 1000 })).toBe(3);
      expect(await store.list({ queue })).toEqual([]);
      expect(await store.get(first.job.id)).toBeUndefined();
      expect((await store.enqueue(request(queue, 'a', { uniqueKey: key }))).created).toBe(true);
    });
  });
}
