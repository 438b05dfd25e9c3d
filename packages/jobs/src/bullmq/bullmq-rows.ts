import type { Job as BullJob } from 'bullmq';

import type { Content } from '@adk/core';

import type { Job, JobError, JobResult, JobState } from '../store/job';

/** What ADK stores in a BullMQ job's `data`. */
export interface BullJobData {
  appName: string;
  userId: string;
  sessionId?: string;
  message: Content;
  stateDelta?: Record<string, unknown>;
  /** ADK priority (BullMQ's own is 0 for "none", which runs first, then 1, 2...). */
  priority: number;
  runAt: number;
  createdAt: number;
  /** Enqueue order, for listing jobs enqueued in the same millisecond. */
  seq?: number;
  uniqueKey?: string;
  lastError?: JobError;
}

/** BullMQ's state names as ADK's. */
export function stateOf(bullState: string, job: BullJob): JobState {
  switch (bullState) {
    case 'active':
      return 'running';
    case 'completed':
      return 'completed';
    case 'failed':
      return job.attemptsMade >= (job.opts.attempts ?? 1) ? 'dead' : 'pending';
    default:
      return 'pending';
  }
}

/** A BullMQ job (with its state) as a {@link Job}. */
export function bullToJob(job: BullJob<BullJobData, JobResult>, bullState: string): Job {
  const data = job.data;
  const state = stateOf(bullState, job);
  const running = state === 'running';
  const finished = state === 'completed' || state === 'dead';
  return {
    id: job.id!,
    queue: job.queueName,
    priority: data.priority,
    appName: data.appName,
    userId: data.userId,
    sessionId: data.sessionId,
    message: data.message,
    stateDelta: data.stateDelta,
    state,
    // Jobs of a job scheduler carry no ADK times: BullMQ's own stand in.
    runAt: data.runAt || job.timestamp + (job.delay ?? 0),
    // attemptsMade counts the attempts that ended (failed or completed).
    attempt: running ? job.attemptsMade + 1 : job.attemptsMade,
    maxAttempts: job.opts.attempts ?? 1,
    lastError: data.lastError,
    result: state === 'completed' ? job.returnvalue : undefined,
    uniqueKey: data.uniqueKey,
    leaseOwner: running ? job.processedBy : undefined,
    leaseExpiresAt: undefined,
    createdAt: data.createdAt || job.timestamp,
    updatedAt: Math.max(data.createdAt || job.timestamp, job.processedOn ?? 0, job.finishedOn ?? 0),
    startedAt: job.processedOn,
    finishedAt: finished ? job.finishedOn : undefined,
  };
}
