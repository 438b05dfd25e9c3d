import {
  AdkError,
  SessionExistsError,
  getText,
  isFinalResponse,
  readInvocationProgress,
  type Event,
  type Runner,
  type Session,
} from '@adk/core';

import type { AttemptOutcome } from '../store/attempt-outcome';
import type { Job, JobError } from '../store/job';

export type { AttemptOutcome } from '../store/attempt-outcome';

/** The session a job runs in: its own, or `job-<id>` (stable across attempts). */
export function jobSessionId(job: Job): string {
  return job.sessionId ?? `job-${job.id}`;
}

/** A thrown value as a stored {@link JobError}. */
export function toJobError(error: unknown): JobError {
  if (error instanceof Error) {
    const code = AdkError.isInstance(error) ? error.code : undefined;
    return { name: error.name, message: error.message, ...(code === undefined ? {} : { code }) };
  }
  return { name: 'Error', message: String(error) };
}

/** The invocation a job runs as: stable across attempts, so a retry can resume it. */
export function jobInvocationId(job: Job): string {
  return `job-${job.id}`;
}

async function ensureSession(
  runner: Runner,
  job: Job,
  sessionId: string,
): Promise<Session | undefined> {
  const request = { appName: runner.appName, userId: job.userId, sessionId };
  const existing = await runner.sessionService.getSession(request);
  if (existing) return existing;
  try {
    await runner.sessionService.createSession(request);
  } catch (error) {
    // Another attempt (an expired lease's) created it meanwhile.
    if (!SessionExistsError.isInstance(error)) throw error;
    return runner.sessionService.getSession(request);
  }
  return undefined;
}

/**
 * Run one attempt of `job` on `runner`, as the invocation `job-<id>`. The first attempt sends the
 * job's message; a later one (the worker died, or the attempt failed) finds the invocation's events
 * in the session and resumes it with `runner.resume`: the message is not sent again, calls whose
 * responses are stored are not executed again, and an interrupted call runs again only if its tool
 * is idempotent.
 *
 * Failure rule: the attempt fails when the run throws, or when the last event it stored carries an
 * `errorCode` (the run ended on an error: a model failure, a tool error the model did not get past,
 * a refused message). Error events followed by more events (the agent recovered) do not fail it.
 * An aborted `signal` makes the outcome `aborted`, whatever the run did.
 */
export async function runJobAttempt(
  runner: Runner,
  job: Job,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  const sessionId = jobSessionId(job);
  let eventCount = 0;
  let last: Event | undefined;
  let finalText = '';
  const invocationId = jobInvocationId(job);
  let resumed = false;
  try {
    const session = await ensureSession(runner, job, sessionId);
    const progress = session && readInvocationProgress(session.events, invocationId);
    resumed = progress !== undefined && progress.events.length > 0;
    if (progress?.finished) {
      // The previous attempt finished the run but died before recording it.
      last = progress.lastEvent;
      finalText = getText(last?.content);
    }
    const events = resumed
      ? runner.resume({ userId: job.userId, sessionId, invocationId, signal })
      : runner.run({
          userId: job.userId,
          sessionId,
          invocationId,
          newMessage: job.message,
          ...(job.stateDelta === undefined ? {} : { stateDelta: job.stateDelta }),
          signal,
        });
    for await (const event of events) {
      if (event.partial) continue;
      eventCount++;
      last = event;
      if (isFinalResponse(event) && event.errorCode === undefined && event.content)
        finalText = getText(event.content);
    }
    if (resumed) {
      const after = await runner.sessionService.getSession({
        appName: runner.appName,
        userId: job.userId,
        sessionId,
      });
      // Every event of the invocation, over all attempts, the user's message included.
      eventCount = (after && readInvocationProgress(after.events, invocationId).events.length) ?? 0;
    }
  } catch (error) {
    if (signal.aborted) return { kind: 'aborted' };
    return { kind: 'failed', error: toJobError(error) };
  }
  if (signal.aborted) return { kind: 'aborted' };
  if (last?.errorCode !== undefined) {
    return {
      kind: 'failed',
      error: {
        name: 'ErrorEvent',
        code: last.errorCode,
        message: last.errorMessage ?? `The run ended on an error event (${last.errorCode}).`,
      },
    };
  }
  // The user's message is stored too: count it, as the session does.
  const stored = resumed ? eventCount : eventCount + 1;
  return { kind: 'completed', result: { finalText, eventCount: stored, sessionId } };
}
