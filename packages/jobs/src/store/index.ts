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
