export { CronExpression } from './cron-expression';
export {
  CronScheduler,
  cronOccurrenceKey,
  type CronSchedule,
  type CronSchedulerOptions,
} from './cron-scheduler';
