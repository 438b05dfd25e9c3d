import diagnosticsChannel from 'node:diagnostics_channel';

import {
  context,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

import { Attr, JobEventName, SpanName, type JobOutcome } from '../attributes';
import type { Instruments } from '../instruments';
import {
  isJobMessage,
  JOB_CHANNELS,
  jobSessionId,
  type ObservedJobCompleted,
  type ObservedJobError,
  type ObservedJobFailed,
  type ObservedJobMessage,
  type ObservedJobReleased,
} from './job-messages';

interface OpenAttempt {
  span: Span;
  startEpochMs: number;
  /** Key of the run the attempt makes (app, user, session). */
  runKey: string;
  metricAttributes: Attributes;
  /** Set by `adk:job:failed`; the span ends on the `retrying` or `dead` message that follows. */
  failedDurationMs?: number;
}

/** Attempts still open beyond which the oldest are ended (a worker that vanished mid-attempt). */
const MAX_OPEN_ATTEMPTS = 10_000;

/** Options of {@link JobSpans}. */
export interface JobSpansOptions {
  tracer: Tracer;
  instruments: Instruments | undefined;
}

/**
 * Turns the `adk:job:*` channels of `@adk/jobs` into one span per job attempt
 * (`run_job <app>`, from `started` to the attempt's outcome) and job metrics. The run the attempt
 * makes finds its parent through {@link parentOfRun}, so the span tree is
 * `run_job <app>` > `invocation` > `invoke_agent <agent>` > ...
 *
 * Outcomes: `completed`; `retrying` (status `ERROR`, a `job.retrying` event with the next start);
 * `dead` (status `ERROR`, a `job.dead` event); `released` (given back unrun, status unset).
 */
export class JobSpans {
  readonly #options: JobSpansOptions;
  /** By worker and job id: one worker holds a job once at a time. */
  readonly #open = new Map<string, OpenAttempt>();
  /** Attempt key by run key, to parent the attempt's run. */
  readonly #byRun = new Map<string, string>();
  #unsubscribers: (() => void)[] = [];

  constructor(options: JobSpansOptions) {
    this.#options = options;
  }

  /** Number of attempts started and not yet ended. */
  get openSpanCount(): number {
    return this.#open.size;
  }

  /** Subscribe to the job channels. Calling it twice has no further effect. */
  start(): void {
    if (this.#unsubscribers.length > 0) return;
    const on = (name: string, handler: (message: ObservedJobMessage) => void) => {
      const listener = (message: unknown) => {
        if (!isJobMessage(message)) return;
        try {
          handler(message);
        } catch {
          // Deliberately swallowed: observability never breaks the worker that published.
        }
      };
      diagnosticsChannel.subscribe(name, listener);
      this.#unsubscribers.push(() => diagnosticsChannel.unsubscribe(name, listener));
    };
    on(JOB_CHANNELS.started, (m) => this.#started(m));
    on(JOB_CHANNELS.completed, (m) => this.#completed(m as ObservedJobCompleted));
    on(JOB_CHANNELS.failed, (m) => this.#failed(m as ObservedJobFailed));
    on(JOB_CHANNELS.retrying, (m) => this.#verdict(m, 'retrying'));
    on(JOB_CHANNELS.dead, (m) => this.#verdict(m, 'dead'));
    on(JOB_CHANNELS.released, (m) => this.#released(m as ObservedJobReleased));
  }

  /** Unsubscribe; attempts still open are ended, marked as interrupted. */
  stop(): void {
    for (const unsubscribe of this.#unsubscribers) unsubscribe();
    this.#unsubscribers = [];
    for (const open of this.#open.values()) {
      open.span.setAttribute('adk.span.interrupted', true);
      open.span.end();
    }
    this.#open.clear();
    this.#byRun.clear();
  }

  /**
   * The context of the job attempt that makes the run of (`appName`, `userId`, `sessionId`), if
   * one is open: the run's `invocation` span becomes its child.
   */
  parentOfRun(appName: string, userId: string, sessionId: string): Context | undefined {
    const key = this.#byRun.get(runKey(appName, userId, sessionId));
    const open = key === undefined ? undefined : this.#open.get(key);
    return open ? trace.setSpan(context.active(), open.span) : undefined;
  }

  #started({ job, workerId }: ObservedJobMessage): void {
    const key = attemptKey(workerId, job.id);
    this.#open.get(key)?.span.end();
    const startEpochMs = performance.timeOrigin + performance.now();
    const sessionId = jobSessionId(job);
    const span = this.#options.tracer.startSpan(
      SpanName.jobAttempt(job.appName),
      {
        startTime: startEpochMs,
        attributes: {
          [Attr.JOB_ID]: job.id,
          [Attr.JOB_QUEUE]: job.queue,
          [Attr.JOB_PRIORITY]: job.priority,
          [Attr.JOB_ATTEMPT]: job.attempt,
          [Attr.JOB_MAX_ATTEMPTS]: job.maxAttempts,
          [Attr.JOB_WORKER_ID]: workerId,
          [Attr.APP_NAME]: job.appName,
          [Attr.USER_ID]: job.userId,
          [Attr.SESSION_ID]: sessionId,
          [Attr.CONVERSATION_ID]: sessionId,
        },
      },
      context.active(),
    );
    const run = runKey(job.appName, job.userId, sessionId);
    this.#open.set(key, {
      span,
      startEpochMs,
      runKey: run,
      metricAttributes: { [Attr.JOB_QUEUE]: job.queue, [Attr.APP_NAME]: job.appName },
    });
    this.#byRun.set(run, key);
    if (this.#open.size > MAX_OPEN_ATTEMPTS) {
      const [oldestKey, oldest] = this.#open.entries().next().value!;
      this.#close(oldestKey, oldest);
      oldest.span.setAttribute('adk.span.interrupted', true);
      oldest.span.end();
    }
  }

  #completed(m: ObservedJobCompleted): void {
    const key = attemptKey(m.workerId, m.job.id);
    const open = this.#open.get(key);
    if (!open) return;
    this.#finish(key, open, 'completed', m.durationMs);
  }

  #failed(m: ObservedJobFailed): void {
    const open = this.#open.get(attemptKey(m.workerId, m.job.id));
    if (!open) return;
    open.failedDurationMs = m.durationMs;
    this.#markFailed(open, m.error);
    open.span.addEvent(
      'exception',
      {
        'exception.type': m.error.name,
        'exception.message': m.error.message,
        ...(m.error.code === undefined ? {} : { 'exception.code': m.error.code }),
      },
      open.startEpochMs + m.durationMs,
    );
  }

  #verdict(m: ObservedJobMessage, outcome: 'retrying' | 'dead'): void {
    const key = attemptKey(m.workerId, m.job.id);
    const open = this.#open.get(key);
    if (!open) return;
    const durationMs = open.failedDurationMs ?? elapsedSince(open.startEpochMs);
    // Dead without a `failed` message first: the job was buried when its lease expired while
    // this worker held it (its last attempt). The job's last error is the only record of why.
    if (open.failedDurationMs === undefined) this.#markFailed(open, m.job.lastError);
    const attributes: Attributes = {};
    if (outcome === 'retrying') attributes[Attr.JOB_RETRY_AT] = new Date(m.job.runAt).toISOString();
    open.span.addEvent(JobEventName[outcome], attributes, open.startEpochMs + durationMs);
    open.span.setAttributes(attributes);
    this.#finish(key, open, outcome, durationMs);
  }

  /**
   * Status `ERROR` and `error.type` on the span and its metrics. Without `error` (a job buried
   * when its lease expired, published without its last error) the cause is the lease.
   */
  #markFailed(open: OpenAttempt, error: ObservedJobError | undefined): void {
    const errorType = error?.code ?? error?.name ?? 'JOB_LEASE_EXPIRED';
    open.span.setAttribute(Attr.ERROR_TYPE, errorType);
    open.span.setStatus({
      code: SpanStatusCode.ERROR,
      message: error?.message ?? 'The lease of the attempt expired.',
    });
    open.metricAttributes = { ...open.metricAttributes, [Attr.ERROR_TYPE]: errorType };
  }

  #released(m: ObservedJobReleased): void {
    const key = attemptKey(m.workerId, m.job.id);
    const open = this.#open.get(key);
    if (!open) return;
    const durationMs = elapsedSince(open.startEpochMs);
    const attributes = { [Attr.JOB_RELEASE_REASON]: String(m.reason) };
    open.span.addEvent(JobEventName.released, attributes, open.startEpochMs + durationMs);
    open.span.setAttributes(attributes);
    this.#finish(key, open, 'released', durationMs);
  }

  #finish(key: string, open: OpenAttempt, outcome: JobOutcome, durationMs: number): void {
    this.#close(key, open);
    open.span.setAttribute(Attr.JOB_OUTCOME, outcome);
    this.#options.instruments?.jobAttempt(durationMs, {
      ...open.metricAttributes,
      [Attr.JOB_OUTCOME]: outcome,
    });
    open.span.end(open.startEpochMs + durationMs);
  }

  #close(key: string, open: OpenAttempt): void {
    this.#open.delete(key);
    if (this.#byRun.get(open.runKey) === key) this.#byRun.delete(open.runKey);
  }
}

function attemptKey(workerId: string, jobId: string): string {
  return `${workerId}\u0000${jobId}`;
}

function runKey(appName: string, userId: string, sessionId: string): string {
  return `${appName}\u0000${userId}\u0000${sessionId}`;
}

function elapsedSince(startEpochMs: number): number {
  return Math.max(0, performance.timeOrigin + performance.now() - startEpochMs);
}
