import type { JobError } from './job';

/** The error recorded on a job whose lease expired after its last allowed attempt. */
export function expiredLeaseError(owner: string | undefined): JobError {
  return {
    name: 'LeaseExpired',
    code: 'JOB_LEASE_EXPIRED',
    message: `The lease of worker "${owner ?? 'unknown'}" expired on the last allowed attempt (the worker crashed or stalled).`,
  };
}
