/**
 * `@adk/jobs/graphile`: the job store on PostgreSQL through graphile-worker.
 */
export {
  GraphileJobStore,
  graphileTaskIdentifier,
  type GraphileJobStoreOptions,
} from './graphile-job-store';
export { graphileBackoffMs } from './graphile-consumer';
export type { GraphileCronOptions } from './graphile-cron';
export {
  PostgresJobChangeFeed,
  type PostgresJobChangeFeedOptions,
} from './postgres-job-change-feed';
