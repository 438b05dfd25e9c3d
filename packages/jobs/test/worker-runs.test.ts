import {
  InMemorySessionService,
  userContent,
  type AppendEventRequest,
  type Event,
} from '@adk/core';
import { afterEach, describe, expect, it } from 'vitest';

import { InMemoryJobStore, JobWorker, jobSessionId } from '../src';
import { ManualClock } from '../src/testing';
import { askedText, recordJobEvents, reportRunner } from './fixtures/agents';

const message = userContent('analyze quarterly report');
let stopRecording: (() => void) | undefined;
afterEach(() => stopRecording?.());

function setup(respond: Parameters<typeof reportRunner>[0]) {
  const clock = new ManualClock();
  const store = new InMemoryJobStore({ clock });
  const sessionService = new InMemorySessionService();
  const { runner, model } = reportRunner(respond, { sessionService });
  const worker = new JobWorker({
    store,
    runners: [runner],
    clock,
    backoff: (attempt) => attempt * 1000,
    queues: { default: 1 },
  });
  return { clock, store, sessionService, runner, model, worker };
}

describe('JobWorker runs jobs', () => {
  it('runs a job in its own new session and records the result', async () => {
    const { store, sessionService, worker, model } = setup(() => 'Revenue grew 12% in Q3.');
    const { job } = await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message,
      stateDelta: { quarter: 'Q3' },
    });
    await worker.drain();
    const done = await store.get(job.id);
    const sessionId = jobSessionId(job);
    expect(sessionId).toBe(`job-${job.id}`);
    const session = await sessionService.getSession({
      appName: 'reports',
      userId: 'u1',
      sessionId,
    });
    expect(session?.events.map((event) => event.author)).toEqual(['user', 'analyst']);
    expect(session?.state).toMatchObject({ quarter: 'Q3' });
    expect(done).toMatchObject({
      state: 'completed',
      attempt: 1,
      result: {
        finalText: 'Revenue grew 12% in Q3.',
        eventCount: session?.events.length,
        sessionId,
      },
    });
    expect(askedText(model.requests[0]!)).toBe('analyze quarterly report');
  });

  it('runs in the session the job names, creating it when missing', async () => {
    const { store, sessionService, worker } = setup(() => 'ok');
    await sessionService.createSession({ appName: 'reports', userId: 'u1', sessionId: 'existing' });
    await store.enqueue({ appName: 'reports', userId: 'u1', sessionId: 'existing', message });
    await store.enqueue({ appName: 'reports', userId: 'u1', sessionId: 'fresh', message });
    await worker.drain();
    for (const sessionId of ['existing', 'fresh']) {
      const session = await sessionService.getSession({
        appName: 'reports',
        userId: 'u1',
        sessionId,
      });
      expect(session?.events).toHaveLength(2);
    }
  });

  it('retries a run that ends on an error event, after the backoff, then succeeds', async () => {
    const { clock, store, worker } = setup((_request, index) =>
      index < 2 ? new Error('model overloaded') : 'Done at last.',
    );
    const recorder = recordJobEvents(['started', 'failed', 'retrying', 'completed', 'dead']);
    stopRecording = recorder.stop;
    const { job } = await store.enqueue({ appName: 'reports', userId: 'u1', message });
    const start = clock.now();
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({
      state: 'pending',
      attempt: 1,
      runAt: start + 1000,
      lastError: { name: 'ErrorEvent', code: 'MODEL_ERROR' },
    });
    clock.advance(999);
    await worker.drain();
    expect((await store.get(job.id))?.attempt).toBe(1);
    clock.advance(1);
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({
      state: 'pending',
      attempt: 2,
      runAt: clock.now() + 2000,
    });
    clock.advance(2000);
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({
      state: 'completed',
      attempt: 3,
      result: { finalText: 'Done at last.' },
    });
    const id = job.id;
    expect(recorder.log).toEqual([
      `started:${id}`,
      `failed:${id}`,
      `retrying:${id}`,
      `started:${id}`,
      `failed:${id}`,
      `retrying:${id}`,
      `started:${id}`,
      `completed:${id}`,
    ]);
  });

  it('retries a run that throws', async () => {
    const { clock, store } = setup(() => 'Stored this time.');
    let failures = 1;
    class FlakySessions extends InMemorySessionService {
      override async appendEvent(request: AppendEventRequest): Promise<Event> {
        if (failures-- > 0) throw new TypeError('disk full');
        return super.appendEvent(request);
      }
    }
    const { runner } = reportRunner(() => 'Stored this time.', {
      sessionService: new FlakySessions(),
    });
    const worker = new JobWorker({ store, runners: [runner], clock, backoff: () => 500 });
    const { job } = await store.enqueue({ appName: 'reports', userId: 'u1', message });
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({
      state: 'pending',
      lastError: { name: 'TypeError', message: 'disk full' },
    });
    clock.advance(500);
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({
      state: 'completed',
      attempt: 2,
      result: { finalText: 'Stored this time.' },
    });
  });

  it('publishes enqueued once per stored job, with the worker id on started', async () => {
    const { store, worker } = setup(() => 'ok');
    const recorder = recordJobEvents(['enqueued', 'started']);
    stopRecording = recorder.stop;
    const first = await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message,
      uniqueKey: 'k',
    });
    await store.enqueue({ appName: 'reports', userId: 'u1', message, uniqueKey: 'k' });
    await worker.drain();
    expect(recorder.log).toEqual([`enqueued:${first.job.id}`, `started:${first.job.id}`]);
    expect(recorder.messages[1]?.message).toMatchObject({ workerId: worker.workerId });
  });

  it('marks a job dead once its attempts are exhausted', async () => {
    const { clock, store, worker } = setup(() => new Error('always down'));
    const recorder = recordJobEvents(['dead', 'retrying']);
    stopRecording = recorder.stop;
    const { job } = await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message,
      maxAttempts: 2,
    });
    await worker.drain();
    clock.advance(1000);
    await worker.drain();
    const dead = await store.get(job.id);
    expect(dead).toMatchObject({ state: 'dead', attempt: 2, lastError: { code: 'MODEL_ERROR' } });
    expect(dead?.lastError?.message).toContain('always down');
    clock.advance(3_600_000);
    await worker.drain();
    expect((await store.get(job.id))?.attempt).toBe(2);
    expect(recorder.log).toEqual([`retrying:${job.id}`, `dead:${job.id}`]);
  });

  it('fails the attempt with a typed error when no runner serves the app', async () => {
    const { store, worker } = setup(() => 'never');
    const { job } = await store.enqueue({
      appName: 'unknown-app',
      userId: 'u1',
      message,
      maxAttempts: 1,
    });
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({
      state: 'dead',
      lastError: { name: 'JobRunnerNotFoundError', code: 'JOB_RUNNER_NOT_FOUND' },
    });
  });

  it('fails the attempt when the runners lookup throws', async () => {
    const { clock, store } = setup(() => 'never');
    const runners = () => {
      throw new RangeError('registry offline');
    };
    const worker = new JobWorker({ store, runners, clock });
    const { job } = await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message,
      maxAttempts: 1,
    });
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({
      state: 'dead',
      lastError: { name: 'RangeError', message: 'registry offline' },
    });
  });

  it('does not fail a run whose agent recovered from a tool error', async () => {
    const { store, worker } = setup((request, index) =>
      index === 0 ? { functionCalls: [{ name: 'missing_tool', args: {} }] } : 'Recovered.',
    );
    const { job } = await store.enqueue({ appName: 'reports', userId: 'u1', message });
    await worker.drain();
    expect(await store.get(job.id)).toMatchObject({
      state: 'completed',
      result: { finalText: 'Recovered.' },
    });
  });

  it('runs the most urgent job first, then the earliest', async () => {
    const { clock, store, worker, model } = setup(() => 'ok');
    const at = clock.now();
    await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message: userContent('bulk'),
      priority: 10,
    });
    await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message: userContent('normal-late'),
      runAt: at,
    });
    await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message: userContent('normal-early'),
      runAt: at - 60_000,
    });
    await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message: userContent('critical'),
      priority: -10,
    });
    await worker.drain();
    expect(model.requests.map(askedText)).toEqual([
      'critical',
      'normal-early',
      'normal-late',
      'bulk',
    ]);
  });
});
