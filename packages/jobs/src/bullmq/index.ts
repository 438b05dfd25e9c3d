/**
 * `@adk/jobs/bullmq`: the job store on Redis through BullMQ.
 */
export { ADK_BACKOFF } from './bullmq-host';
export { BullMqJobStore, type BullMqJobStoreOptions } from './bullmq-job-store';
export type { BullMqCronOptions } from './bullmq-cron';
export { RedisJobChangeFeed, type RedisJobChangeFeedOptions } from './redis-job-change-feed';
