import { CronExpression } from '../cron/cron-expression';
import type { CronSchedule } from '../cron/cron-scheduler';
import { normalizeEnqueue } from '../store/normalize-enqueue';
import { ADK_BACKOFF, type BullMqStoreHost } from './bullmq-host';
import type { BullJobData } from './bullmq-rows';

/** Options of `BullMqJobStore.schedule`. */
export interface BullMqCronOptions {
  schedules: readonly CronSchedule[];
}

/**
 * Cron schedules as BullMQ job schedulers: `upsertJobScheduler` per schedule, in UTC, on the
 * schedule's queue; BullMQ creates each occurrence's job once (its id derives from the scheduler
 * and the occurrence), whichever process upserted it.
 */
export class BullMqCron {
  readonly #store: BullMqStoreHost;

  constructor(store: BullMqStoreHost) {
    this.#store = store;
  }

  async upsert(options: BullMqCronOptions): Promise<void> {
    for (const schedule of options.schedules) {
      CronExpression.parse(schedule.cron);
      const input = normalizeEnqueue(schedule.job, Date.now());
      const data: BullJobData = {
        appName: input.appName,
        userId: input.userId,
        message: input.message,
        priority: input.priority,
        runAt: 0,
        createdAt: 0,
        ...(input.sessionId === undefined ? {} : { sessionId: input.sessionId }),
        ...(input.stateDelta === undefined ? {} : { stateDelta: input.stateDelta }),
      };
      await this.#store.queue(input.queue).upsertJobScheduler(
        schedule.name,
        { pattern: schedule.cron, tz: 'UTC' },
        {
          name: 'adk',
          data,
          opts: {
            priority: input.priority,
            attempts: input.maxAttempts,
            backoff: { type: ADK_BACKOFF },
            removeOnComplete: false,
            removeOnFail: false,
          },
        },
      );
    }
  }
}
