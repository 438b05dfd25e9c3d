import diagnosticsChannel from 'node:diagnostics_channel';

import type { Job, JobError } from '../store/job';

/**
 * Job lifecycle messages published on `node:diagnostics_channel`, in the style of `@adk/core`'s
 * run channels: nothing is built or published while a channel has no subscriber.
 *
 * A failed attempt publishes `failed`, then either `retrying` (attempts left) or `dead`.
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
/** After a failed attempt (or an expired lease) no attempts are left. */
export interface JobDeadMessage {
  job: Job;
  workerId: string;
}
/** The worker gave the job back unrun (stopping, or its lease was lost). */
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
