import diagnosticsChannel from 'node:diagnostics_channel';

import type { Job, JobError } from '../store/job';

/**
 * Job lifecycle messages published on `node:diagnostics_channel`, in the style of `@adk/core`'s
 * run channels: nothing is built or published while a channel has no subscriber.
 *
 * The worker ends every attempt it started with `completed`, `failed` then `retrying` or `dead`,
 * or `released` (unless its process dies or its store call throws). A store's `claim` that buries
 * a job whose lease expired on its last attempt publishes `dead` for that attempt, with the
 * `workerId` of the lost lease; if that worker is still running, its own outcome is refused later
 * and it publishes `released` (`lease-lost`) for the same attempt.
 */

/** A job was stored by `enqueue` (not published for a deduplicated enqueue). */
export interface JobEnqueuedMessage {
  job: Job;
}
/** A worker claimed the job and starts an attempt. */
export interface JobStartedMessage {
  job: Job;
  workerId: string;
}
/** The attempt succeeded; `job.result` holds the outcome. */
export interface JobCompletedMessage {
  job: Job;
  workerId: string;
  durationMs: number;
}
/** The attempt failed. */
export interface JobFailedMessage {
  job: Job;
  workerId: string;
  error: JobError;
  durationMs: number;
}
/** After a failed attempt, the job waits until `job.runAt` to try again. */
export interface JobRetryingMessage {
  job: Job;
  workerId: string;
}
/**
 * No attempts are left: published by the worker after a failed last attempt, or by the store
 * whose `claim` buried a job whose lease expired on its last attempt (`workerId` is then the
 * worker that lost the lease, `job.lastError.code` is `JOB_LEASE_EXPIRED`).
 */
export interface JobDeadMessage {
  job: Job;
  workerId: string;
}
/**
 * The attempt ended without an outcome recorded by this worker: `stopping` (the job was given
 * back, due now, the attempt not counted), or `lease-lost` (the job was cancelled, or its lease
 * expired and another worker took or buried it; the worker's result, if any, was not recorded).
 * `job` is the stored job for `stopping`, the job as claimed for `lease-lost`.
 */
export interface JobReleasedMessage {
  job: Job;
  workerId: string;
  reason: 'stopping' | 'lease-lost';
}

/** Names of the job channels. */
export const jobChannelNames = {
  enqueued: 'adk:job:enqueued',
  started: 'adk:job:started',
  completed: 'adk:job:completed',
  failed: 'adk:job:failed',
  retrying: 'adk:job:retrying',
  dead: 'adk:job:dead',
  released: 'adk:job:released',
} as const;

/** Message type published on each job channel. */
export interface JobChannelMessages {
  enqueued: JobEnqueuedMessage;
  started: JobStartedMessage;
  completed: JobCompletedMessage;
  failed: JobFailedMessage;
  retrying: JobRetryingMessage;
  dead: JobDeadMessage;
  released: JobReleasedMessage;
}

/** A job channel key. */
export type JobChannelKey = keyof JobChannelMessages;

const channels = Object.fromEntries(
  Object.entries(jobChannelNames).map(([key, name]) => [key, diagnosticsChannel.channel(name)]),
) as Record<JobChannelKey, diagnosticsChannel.Channel>;

/** Publish a job message; `build` runs only when the channel has subscribers. */
export function publishJobEvent<K extends JobChannelKey>(
  key: K,
  build: () => JobChannelMessages[K],
): void {
  const channel = channels[key];
  if (channel.hasSubscribers) channel.publish(build());
}

/**
 * Subscribe to a job channel; returns a function that unsubscribes.
 *
 * @example
 * ```ts
 * const stop = subscribeJobEvents('dead', ({ job }) => alert(`${job.id}: ${job.lastError?.message}`));
 * ```
 */
export function subscribeJobEvents<K extends JobChannelKey>(
  key: K,
  listener: (message: JobChannelMessages[K]) => void,
): () => void {
  const handler = (message: unknown) => listener(message as JobChannelMessages[K]);
  diagnosticsChannel.subscribe(jobChannelNames[key], handler);
  return () => {
    diagnosticsChannel.unsubscribe(jobChannelNames[key], handler);
  };
}
