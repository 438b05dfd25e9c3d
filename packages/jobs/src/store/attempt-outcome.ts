import type { JobError, JobResult } from './job';

/** How one attempt of a job ended, as the worker reports it to the store. */
export type AttemptOutcome =
  | { kind: 'completed'; result: JobResult }
  | { kind: 'failed'; error: JobError }
  | { kind: 'aborted' };
