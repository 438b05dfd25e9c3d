import type { BackgroundJob } from '../api/types';

/** The words people read for a state (the API's names are in `data-state` and the tooltip). */
export function jobStateLabel(job: Pick<BackgroundJob, 'state' | 'attempt'>): string {
  switch (job.state) {
    case 'pending':
      return job.attempt > 0 ? 'retrying' : 'queued';
    case 'dead':
      return 'failed';
    case 'running':
    case 'completed':
    case 'cancelled':
      return job.state;
  }
}

/** The session a job runs in: its own, or the worker's default `job-<id>`. */
export function jobSession(job: BackgroundJob): string {
  return job.sessionId ?? job.result?.sessionId ?? `job-${job.id}`;
}
