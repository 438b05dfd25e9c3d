import diagnosticsChannel from 'node:diagnostics_channel';

import { LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { InMemoryJobStore, JobWorker } from '@adk/jobs';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';

import { Attr, MetricName } from '../src';
import { harness, parentId, type TelemetryHarness } from './harness';

function reportsRunner(model: FakeModel): Runner {
  const agent = new LlmAgent({ name: 'analyst', model, instruction: 'Analyze reports.' });
  return new Runner({ appName: 'reports', agent });
}

function children(spans: ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((span) => parentId(span) === parent.spanContext().spanId);
}

/** The names of the tree under `root`, depth first, indented by level. */
function tree(spans: ReadableSpan[], root: ReadableSpan, depth = 0): string[] {
  return [
    `${'  '.repeat(depth)}${root.name}`,
    ...children(spans, root).flatMap((child) => tree(spans, child, depth + 1)),
  ];
}

describe('telemetry of background jobs (@adk/jobs)', () => {
  let h: TelemetryHarness;
  afterEach(async () => {
    await h.close();
  });

  it('traces a completed attempt as run_job > invocation > invoke_agent > call_llm, and counts it', async () => {
    h = harness();
    const store = new InMemoryJobStore();
    const { job } = await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message: userContent('Analyze the quarterly report'),
      queue: 'critical',
      priority: 3,
    });
    const runner = reportsRunner(new FakeModel({ responses: () => 'Revenue grew 12%.' }));
    const worker = new JobWorker({ store, runners: [runner], queues: { critical: 1 } });
    await worker.drain();
    await worker.stop();

    const spans = h.spans();
    const attempt = h.span('run_job reports');
    expect(parentId(attempt)).toBeUndefined();
    expect(tree(spans, attempt)).toEqual([
      'run_job reports',
      '  invocation',
      '    invoke_agent analyst',
      '      call_llm',
    ]);
    expect(
      spans.every((span) => span.spanContext().traceId === attempt.spanContext().traceId),
    ).toBe(true);
    expect(attempt.attributes).toMatchObject({
      [Attr.JOB_ID]: job.id,
      [Attr.JOB_QUEUE]: 'critical',
      [Attr.JOB_PRIORITY]: 3,
      [Attr.JOB_ATTEMPT]: 1,
      [Attr.JOB_MAX_ATTEMPTS]: 5,
      [Attr.JOB_WORKER_ID]: worker.workerId,
      [Attr.JOB_OUTCOME]: 'completed',
      [Attr.APP_NAME]: 'reports',
      [Attr.USER_ID]: 'u1',
      [Attr.SESSION_ID]: `job-${job.id}`,
    });
    expect(attempt.status.code).toBe(SpanStatusCode.UNSET);
    expect(attempt.events).toEqual([]);
    const invocation = h.span('invocation');
    expect(invocation.attributes[Attr.SESSION_ID]).toBe(`job-${job.id}`);

    const outcomes = await h.metric(MetricName.JOB_OUTCOMES);
    expect(outcomes.map((point) => [point.attributes, point.value])).toEqual([
      [
        {
          [Attr.JOB_QUEUE]: 'critical',
          [Attr.APP_NAME]: 'reports',
          [Attr.JOB_OUTCOME]: 'completed',
        },
        1,
      ],
    ]);
    const durations = await h.metric(MetricName.JOB_DURATION);
    expect(durations).toHaveLength(1);
    expect(durations[0]!.value).toMatchObject({ count: 1 });
  });

  it('marks failed attempts as errors: retrying, then dead, each with its own run', async () => {
    h = harness();
    const store = new InMemoryJobStore();
    const { job } = await store.enqueue({
      appName: 'reports',
      userId: 'u1',
      message: userContent('Analyze'),
      maxAttempts: 2,
    });
    const model = new FakeModel({
      responses: [new Error('quota exceeded'), new Error('quota exceeded again')],
    });
    const worker = new JobWorker({ store, runners: [reportsRunner(model)], backoff: () => 0 });
    await worker.drain();
    await worker.stop();
    expect((await store.get(job.id))?.state).toBe('dead');

    const spans = h.spans();
    const attempts = spans
      .filter((span) => span.name === 'run_job reports')
      .sort(
        (a, b) => Number(a.attributes[Attr.JOB_ATTEMPT]) - Number(b.attributes[Attr.JOB_ATTEMPT]),
      );
    expect(
      attempts.map((span) => [
        span.attributes[Attr.JOB_ATTEMPT],
        span.attributes[Attr.JOB_OUTCOME],
      ]),
    ).toEqual([
      [1, 'retrying'],
      [2, 'dead'],
    ]);
    for (const attempt of attempts) {
      expect(attempt.status).toMatchObject({ code: SpanStatusCode.ERROR });
      expect(attempt.attributes[Attr.ERROR_TYPE]).toEqual(expect.any(String));
      expect(attempt.events[0]).toMatchObject({ name: 'exception' });
      expect(tree(spans, attempt).slice(0, 2)).toEqual(['run_job reports', '  invocation']);
    }
    const [first, second] = attempts as [ReadableSpan, ReadableSpan];
    expect(first.status.message).toMatch(/quota exceeded/);
    expect(first.events.map((event) => event.name)).toEqual(['exception', 'job.retrying']);
    expect(first.attributes[Attr.JOB_RETRY_AT]).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
    expect(second.events.map((event) => event.name)).toEqual(['exception', 'job.dead']);
    // Both attempts' runs are in the job's one session, each under its own attempt.
    expect(children(spans, first)).toHaveLength(1);
    expect(children(spans, second)).toHaveLength(1);

    const outcomes = await h.metric(MetricName.JOB_OUTCOMES);
    const byOutcome = Object.fromEntries(
      outcomes.map((point) => [point.attributes[Attr.JOB_OUTCOME], point.value]),
    );
    expect(byOutcome).toEqual({ retrying: 1, dead: 1 });
    expect(outcomes[0]!.attributes[Attr.ERROR_TYPE]).toEqual(first.attributes[Attr.ERROR_TYPE]);
  });

  it('ends an attempt the worker gives back on stop as released, not as an error', async () => {
    h = harness();
    const store = new InMemoryJobStore();
    await store.enqueue({ appName: 'reports', userId: 'u1', message: userContent('Analyze') });
    let called!: () => void;
    const modelCalled = new Promise<void>((resolve) => (called = resolve));
    let answer!: (text: string) => void;
    const model = new FakeModel({
      responses: () => {
        called();
        return new Promise<string>((resolve) => (answer = resolve));
      },
    });
    const worker = new JobWorker({ store, runners: [reportsRunner(model)] });
    await worker.poll();
    await modelCalled;
    const stopping = worker.stop();
    answer('too late');
    await stopping;

    const attempt = h.span('run_job reports');
    expect(attempt.attributes).toMatchObject({
      [Attr.JOB_OUTCOME]: 'released',
      [Attr.JOB_RELEASE_REASON]: 'stopping',
    });
    expect(attempt.status.code).toBe(SpanStatusCode.UNSET);
    expect(attempt.events.map((event) => event.name)).toEqual(['job.released']);
    const outcomes = await h.metric(MetricName.JOB_OUTCOMES);
    expect(outcomes.map((point) => point.attributes[Attr.JOB_OUTCOME])).toEqual(['released']);
  });

  it('ignores job-channel messages of another shape', async () => {
    h = harness();
    for (const message of [
      null,
      'x',
      { job: null, workerId: 'w' },
      { job: { id: 1 }, workerId: 'w' },
    ])
      diagnosticsChannel.channel('adk:job:started').publish(message);
    diagnosticsChannel.channel('adk:job:completed').publish({ workerId: 'w' });
    await h.telemetry.shutdown();
    expect(h.spans()).toEqual([]);
  });

  it('marks an attempt buried by another claim (lease expired on its last attempt) as an error', async () => {
    h = harness();
    const job = {
      id: 'j1',
      queue: 'default',
      priority: 0,
      appName: 'reports',
      userId: 'u1',
      sessionId: undefined,
      attempt: 1,
      maxAttempts: 1,
      runAt: Date.now(),
    };
    diagnosticsChannel.channel('adk:job:started').publish({ job, workerId: 'w1' });
    const lastError = {
      name: 'JobError',
      code: 'JOB_LEASE_EXPIRED',
      message: 'Lease of w1 expired.',
    };
    diagnosticsChannel
      .channel('adk:job:dead')
      .publish({ job: { ...job, lastError }, workerId: 'w1' });
    await h.telemetry.shutdown();
    const attempt = h.span('run_job reports');
    expect(attempt.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Lease of w1 expired.' });
    expect(attempt.attributes[Attr.ERROR_TYPE]).toBe('JOB_LEASE_EXPIRED');
    expect(attempt.attributes[Attr.JOB_OUTCOME]).toBe('dead');
    expect(attempt.events.map((event) => event.name)).toEqual(['job.dead']);
  });

  it('can be turned off with jobs: false', async () => {
    h = harness({ jobs: false });
    const store = new InMemoryJobStore();
    await store.enqueue({ appName: 'reports', userId: 'u1', message: userContent('Analyze') });
    const worker = new JobWorker({ store, runners: [reportsRunner(new FakeModel(['ok']))] });
    await worker.drain();
    await worker.stop();
    expect(h.spans().map((span) => span.name)).not.toContain('run_job reports');
    expect(parentId(h.span('invocation'))).toBeUndefined();
  });
});
