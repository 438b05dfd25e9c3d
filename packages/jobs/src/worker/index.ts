export { exponentialBackoff, type Backoff, type BackoffOptions } from './backoff';
export { JobWorker } from './job-worker';
export { jobSessionId, runJobAttempt, type AttemptOutcome } from './run-job';
export type { JobRunners, JobWorkerOptions } from './worker-options';
