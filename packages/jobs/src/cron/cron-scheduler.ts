import { InvalidArgumentError } from '@adk/core';

import { systemClock, type JobClock, type TimerHandle } from '../clock/job-clock';
import type { Job } from '../store/job';
import type { EnqueueJobRequest, JobStore } from '../store/job-store';
import { CronExpression } from './cron-expression';

/** One recurring job. */
export interface CronSchedule {
  /** Unique name of the schedule; part of each occurrence's unique key. */
  name: string;
  /** Standard 5-field cron expression, in UTC (see {@link CronExpression}). */
  cron: string;
  /** The job enqueued at each occurrence (its `runAt` is the occurrence). */
  job: Omit<EnqueueJobRequest, 'runAt' | 'runIn' | 'uniqueKey'>;
}

/** Options of {@link CronScheduler}. */
export interface CronSchedulerOptions {
  store: JobStore;
  schedules: readonly CronSchedule[];
  /**
   * How late an occurrence may still be enqueued, in ms (default 5 minutes). After a longer
   * downtime the missed occurrences are skipped, not replayed.
   */
  catchUpMs?: number;
  /** Longest wait between two ticks of `start()`, in ms (default 60 s). */
  maxTickIntervalMs?: number;
  clock?: JobClock;
  /** Called when enqueueing fails (the next tick tries again). Default: `console.error`. */
  onError?: (error: unknown) => void;
}

/** The unique key of one occurrence of a schedule: `cron:<name>:<ISO time>`. */
export function cronOccurrenceKey(name: string, occurrence: number): string {
  return `cron:${name}:${new Date(occurrence).toISOString()}`;
}

/**
 * Enqueues a job per occurrence of each cron schedule.
 *
 * Each occurrence is enqueued with the unique key `cron:<name>:<time>`, so any number of
 * schedulers (one per worker process) enqueue it once between them. A tick enqueues, per schedule,
 * only the latest occurrence at or before now, and only when it is at most `catchUpMs` old: after
 * downtime at most one missed occurrence runs (and none when the downtime was longer than
 * `catchUpMs`), so runs never pile up.
 *
 * @example
 * ```ts
 * const scheduler = new CronScheduler({
 *   store,
 *   schedules: [{ name: 'daily-report', cron: '0 9 * * *', job: { appName: 'reports', userId: 'ops', message: userContent('Daily report') } }],
 * });
 * scheduler.start();
 * ```
 */
export class CronScheduler {
  readonly #store: JobStore;
  readonly #schedules: { schedule: CronSchedule; cron: CronExpression }[];
  readonly #catchUpMs: number;
  readonly #maxTickIntervalMs: number;
  readonly #clock: JobClock;
  readonly #onError: (error: unknown) => void;
  #timer: TimerHandle | undefined;
  #running = false;

  /** @throws InvalidCronExpressionError or InvalidArgumentError for a bad schedule. */
  constructor(options: CronSchedulerOptions) {
    this.#store = options.store;
    this.#clock = options.clock ?? systemClock;
    this.#catchUpMs = options.catchUpMs ?? 5 * 60_000;
    this.#maxTickIntervalMs = options.maxTickIntervalMs ?? 60_000;
    this.#onError = options.onError ?? ((error) => console.error('@adk/jobs cron:', error));
    if (!(this.#catchUpMs >= 0))
      throw new InvalidArgumentError({ argument: 'catchUpMs', message: 'catchUpMs must be >= 0.' });
    if (!(this.#maxTickIntervalMs > 0))
      throw new InvalidArgumentError({
        argument: 'maxTickIntervalMs',
        message: 'maxTickIntervalMs must be positive.',
      });
    const names = new Set<string>();
    this.#schedules = options.schedules.map((schedule) => {
      if (typeof schedule.name !== 'string' || schedule.name === '' || names.has(schedule.name))
        throw new InvalidArgumentError({
          argument: 'schedules',
          message: `Every schedule needs a unique, non-empty name ("${String(schedule.name)}").`,
        });
      names.add(schedule.name);
      return { schedule, cron: CronExpression.parse(schedule.cron) };
    });
  }

  /**
   * Enqueue the due occurrence of every schedule (see the class rule). Resolves with the jobs this
   * call created; occurrences already enqueued (by this or another scheduler) are not repeated.
   */
  async tick(): Promise<Job[]> {
    const now = this.#clock.now();
    const created: Job[] = [];
    for (const { schedule, cron } of this.#schedules) {
      const occurrence = cron.previous(now);
      if (now - occurrence > this.#catchUpMs) continue;
      const result = await this.#store.enqueue({
        ...schedule.job,
        runAt: occurrence,
        uniqueKey: cronOccurrenceKey(schedule.name, occurrence),
      });
      if (result.created) created.push(result.job);
    }
    return created;
  }

  /** Tick now, then at each next occurrence (at least every `maxTickIntervalMs`), until `stop()`. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    void this.#loop();
  }

  /** Stop ticking. */
  stop(): void {
    this.#running = false;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #loop(): Promise<void> {
    if (!this.#running) return;
    await this.tick().catch(this.#onError);
    if (!this.#running) return;
    const now = this.#clock.now();
    const next = Math.min(...this.#schedules.map(({ cron }) => cron.next(now)));
    const wait = Math.max(0, Math.min(this.#maxTickIntervalMs, next - now));
    this.#timer = this.#clock.setTimeout(() => {
      this.#timer = undefined;
      void this.#loop();
    }, wait);
  }
}
