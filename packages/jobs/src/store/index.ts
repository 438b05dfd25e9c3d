export { InMemoryJobStore, type InMemoryJobStoreOptions } from './in-memory-job-store';
export { JOB_STATES, type Job, type JobError, type JobResult, type JobState } from './job';
export type {
  ClaimJobsRequest,
  CompleteJobRequest,
  EnqueueJobRequest,
  EnqueueJobResult,
  ExtendLeaseRequest,
  FailJobRequest,
  JobStore,
  LeasedJobStore,
  LeasedJobRequest,
  ListJobsRequest,
  PruneJobsRequest,
} from './job-store';
export { expiredLeaseError } from './lease-expired';
export {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_QUEUE,
  checkClaim,
  checkListLimit,
  checkPrune,
  normalizeEnqueue,
  type NormalizedEnqueue,
} from './normalize-enqueue';
export type { AttemptOutcome } from './attempt-outcome';
export {
  isQueueEngineJobStore,
  type ConsumeRequest,
  type JobConsumer,
  type QueueEngineJobStore,
  type RecordedAttempt,
} from './queue-engine';
