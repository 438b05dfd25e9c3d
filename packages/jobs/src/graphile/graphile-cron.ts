import { EventEmitter } from 'node:events';

import { parseCronItems, run, type Runner, type WorkerEvents } from 'graphile-worker';
import type pg from 'pg';

import { cronOccurrenceKey, type CronSchedule } from '../cron/cron-scheduler';
import { CronExpression } from '../cron/cron-expression';
import type { JobConsumer } from '../store/queue-engine';
import type { JobStore } from '../store/job-store';
import { stopOnlyForOwnBreakingMigrations } from './graphile-foreign-migrations';
import { quietLogger } from './graphile-schema';

/** Options of `GraphileJobStore.schedule`. */
export interface GraphileCronOptions {
  schedules: readonly CronSchedule[];
  /**
   * How far back missed occurrences are still enqueued when the crontab starts, in ms (default 5
   * minutes; graphile-worker's `backfillPeriod`). Unlike `CronScheduler`, graphile-worker
   * backfills every occurrence missed within it, not only the latest.
   */
  catchUpMs?: number;
}

const CRON_TASK = 'adk:cron';

/**
 * graphile-worker's crontab, enqueueing ADK jobs: each schedule is a crontab item of the task
 * `adk:cron`, whose handler enqueues the schedule's job with the occurrence's unique key.
 */
export class GraphileCron implements JobConsumer {
  readonly #options: {
    pool: pg.Pool;
    schema: string;
    store: JobStore;
    options: GraphileCronOptions;
  };
  #runner: Runner | undefined;
  #stopped: Promise<void> | undefined;
  /** The runner's own stop, once this crontab stopped it because its schema was upgraded. */
  #runnerStopped: Promise<void> | undefined;

  constructor(options: {
    pool: pg.Pool;
    schema: string;
    store: JobStore;
    options: GraphileCronOptions;
  }) {
    this.#options = options;
    for (const schedule of options.options.schedules) CronExpression.parse(schedule.cron);
  }

  async start(): Promise<void> {
    const { pool, schema, store, options } = this.#options;
    const byName = new Map(options.schedules.map((schedule) => [schedule.name, schedule]));
    const backfillPeriod = options.catchUpMs ?? 5 * 60_000;
    // As for the job consumer: another schema's breaking migration (announced database-wide) must
    // not stop this crontab; only one of its own schema does.
    const events: WorkerEvents = new EventEmitter() as WorkerEvents;
    await stopOnlyForOwnBreakingMigrations(events, pool, schema, {
      // A newer graphile-worker upgraded this schema: this version cannot run on it.
      onOwnBreaking: () => {
        if (this.#stopped || this.#runnerStopped) return;
        this.#runnerStopped = this.#runner?.stop().catch(() => undefined);
      },
      onError: () => undefined,
    });
    this.#runner = await run({
      pgPool: pool,
      schema,
      concurrency: 1,
      noHandleSignals: true,
      logger: quietLogger(),
      events,
      parsedCronItems: parseCronItems(
        options.schedules.map((schedule) => ({
          task: CRON_TASK,
          match: schedule.cron,
          identifier: schedule.name,
          payload: { name: schedule.name },
          options: { backfillPeriod, maxAttempts: 5, jobKey: `adk:cron:${schedule.name}` },
        })),
      ),
      taskList: {
        [CRON_TASK]: async (payload) => {
          const { name, _cron } = payload as { name: string; _cron: { ts: string } };
          const schedule = byName.get(name);
          if (!schedule) return;
          const occurrence = Date.parse(_cron.ts);
          await store.enqueue({
            ...schedule.job,
            runAt: occurrence,
            uniqueKey: cronOccurrenceKey(name, occurrence),
          });
        },
      },
    });
  }

  /** Stop the crontab; a second call waits for the first (graphile's runner refuses two stops). */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    // A runner this crontab already stopped refuses a second stop.
    if (this.#runnerStopped) await this.#runnerStopped;
    else await this.#runner?.stop();
  }
}
