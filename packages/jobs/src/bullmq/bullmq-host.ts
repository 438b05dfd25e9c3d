import type { Job as BullJob, Queue } from 'bullmq';
import type { Redis } from 'ioredis';

import type { Job, JobResult } from '../store/job';
import type { BullJobData } from './bullmq-rows';

/** The custom backoff type whose delay the worker's `backoff` option computes. */
export const ADK_BACKOFF = 'adk';

/**
 * What the consumer and the cron scheduler use of their `BullMqJobStore` (which implements it):
 * declared apart so that neither imports the store's module.
 */
export interface BullMqStoreHost {
  readonly connection: Redis;
  readonly prefix: string;
  queue(name: string): Queue<BullJobData, JobResult>;
  get(id: string): Promise<Job | undefined>;
  orderScheduled(bull: BullJob<BullJobData, JobResult>): Promise<void>;
  isCancelled(ids: readonly string[]): Promise<Set<string>>;
}
