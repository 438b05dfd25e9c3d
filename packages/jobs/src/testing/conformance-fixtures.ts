import { randomUUID } from 'node:crypto';

import type { EnqueueJobRequest, JobStore, LeasedJobStore } from '../store/job-store';
import type { ManualClock } from './manual-clock';

/**
 * Makes a store on the given clock; called once per test. Queue-engine stores take their time
 * from the engine in the tests that run jobs, and may use the clock for `runAt` and `createdAt`.
 */
export type MakeJobStore = (clock: ManualClock) => Promise<JobStore> | JobStore;

/** Makes a leased (polled) store on the given clock; called once per test. */
export type MakeLeasedJobStore = (clock: ManualClock) => Promise<LeasedJobStore> | LeasedJobStore;

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
