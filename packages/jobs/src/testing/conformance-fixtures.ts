import { randomUUID } from 'node:crypto';

import type { EnqueueJobRequest, JobStore } from '../store/job-store';
import type { ManualClock } from './manual-clock';

/** Makes a store on the given clock; called once per test. */
export type MakeJobStore = (clock: ManualClock) => Promise<JobStore> | JobStore;

/** A queue name no other test uses, so stores sharing one database stay isolated. */
export function newQueue(): string {
  return `q-${randomUUID()}`;
}

/** A valid enqueue request on `queue` (text message `text`). */
export function request(
  queue: string,
  text = 'analyze quarterly report',
  extra: Partial<EnqueueJobRequest> = {},
): EnqueueJobRequest {
  return {
    appName: 'reports',
    userId: 'u1',
    queue,
    message: { role: 'user', parts: [{ text }] },
    ...extra,
  };
}

/** Texts of the jobs' messages, in order. */
export function texts(jobs: readonly { message: { parts: { text?: string }[] } }[]): string[] {
  return jobs.map((job) => job.message.parts[0]?.text ?? '');
}
