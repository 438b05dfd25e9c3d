import {
  AdkError,
  SessionExistsError,
  getText,
  isFinalResponse,
  type Event,
  type Runner,
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

async function ensureSession(runner: Runner, job: Job, sessionId: string): Promise<void> {
  const request = { appName: runner.appName, userId: job.userId, sessionId };
  if (await runner.sessionService.getSession(request)) return;
  try {
    await runner.sessionService.createSession(request);
  } catch (error) {
    // Another attempt (an expired lease's) created it meanwhile.
    if (!SessionExistsError.isInstance(error)) throw error;
  }
}

/**
 * Run one attempt of `job` on `runner`.
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
  try {
    await ensureSession(runner, job, sessionId);
    for await (const event of runner.run({
      userId: job.userId,
      sessionId,
      newMessage: job.message,
      ...(job.stateDelta === undefined ? {} : { stateDelta: job.stateDelta }),
      signal,
    })) {
      if (event.partial) continue;
      eventCount++;
      last = event;
      if (isFinalResponse(event) && event.errorCode === undefined && event.content)
        finalText = getText(event.content);
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
  return { kind: 'completed', result: { finalText, eventCount: eventCount + 1, sessionId } };
}
