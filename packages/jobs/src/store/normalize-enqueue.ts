import { InvalidArgumentError } from '@adk/core';

import type { EnqueueJobRequest } from './job-store';

/** Default queue name. */
export const DEFAULT_QUEUE = 'default';
/** Default attempts allowed. */
export const DEFAULT_MAX_ATTEMPTS = 5;

/** The largest time a `Date` holds, in ms from the epoch either way (about 275,760 years). */
const MAX_DATE_MS = 8.64e15;

/** An enqueue request with its defaults applied and `runIn` resolved. */
export interface NormalizedEnqueue {
  appName: string;
  userId: string;
  sessionId: string | undefined;
  message: EnqueueJobRequest['message'];
  stateDelta: Record<string, unknown> | undefined;
  queue: string;
  priority: number;
  runAt: number;
  maxAttempts: number;
  uniqueKey: string | undefined;
}

function invalid(argument: string, message: string): never {
  throw new InvalidArgumentError({ argument, message });
}

function nonEmpty(value: unknown, argument: string): string {
  if (typeof value !== 'string' || value.length === 0)
    invalid(argument, `${argument} must be a non-empty string.`);
  return value;
}

function optionalNonEmpty(value: unknown, argument: string): string | undefined {
  return value === undefined ? undefined : nonEmpty(value, argument);
}

/**
 * Check an enqueue request and apply the defaults, so every store accepts and refuses the same
 * requests. `now` resolves `runIn`.
 *
 * @throws InvalidArgumentError naming the offending field.
 */
export function normalizeEnqueue(request: EnqueueJobRequest, now: number): NormalizedEnqueue {
  if (request === null || typeof request !== 'object') invalid('request', 'request is required.');
  const message = request.message;
  if (
    message === null ||
    typeof message !== 'object' ||
    !Array.isArray(message.parts) ||
    message.parts.length === 0
  ) {
    invalid('message', 'message must be a Content with at least one part.');
  }
  const stateDelta = request.stateDelta;
  if (
    stateDelta !== undefined &&
    (stateDelta === null || typeof stateDelta !== 'object' || Array.isArray(stateDelta))
  ) {
    invalid('stateDelta', 'stateDelta must be a plain object.');
  }
  const priority = request.priority ?? 0;
  if (!Number.isSafeInteger(priority)) invalid('priority', 'priority must be an integer.');
  const maxAttempts = request.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1)
    invalid('maxAttempts', 'maxAttempts must be an integer of at least 1.');
  if (request.runAt !== undefined && request.runIn !== undefined)
    invalid('runAt', 'Give runAt or runIn, not both.');
  if (request.runAt !== undefined && !Number.isFinite(request.runAt))
    invalid('runAt', 'runAt must be a finite number of ms since the epoch.');
  if (request.runIn !== undefined && (!Number.isFinite(request.runIn) || request.runIn < 0))
    invalid('runIn', 'runIn must be a finite, non-negative number of ms.');
  const runAt = Math.round(request.runAt ?? now + (request.runIn ?? 0));
  if (Math.abs(runAt) > MAX_DATE_MS) {
    const argument = request.runAt === undefined ? 'runIn' : 'runAt';
    invalid(
      argument,
      `${argument} is out of range: the job would run at ${runAt} ms since the epoch, beyond what a Date holds (±${MAX_DATE_MS}).`,
    );
  }
  return {
    appName: nonEmpty(request.appName, 'appName'),
    userId: nonEmpty(request.userId, 'userId'),
    sessionId: optionalNonEmpty(request.sessionId, 'sessionId'),
    message,
    stateDelta,
    queue: request.queue === undefined ? DEFAULT_QUEUE : nonEmpty(request.queue, 'queue'),
    priority,
    runAt,
    maxAttempts,
    uniqueKey: optionalNonEmpty(request.uniqueKey, 'uniqueKey'),
  };
}

/** Check a claim's numbers. @throws InvalidArgumentError */
export function checkClaim(request: { limit: number; leaseMs: number; workerId: string }): void {
  if (!Number.isSafeInteger(request.limit) || request.limit < 1)
    invalid('limit', 'limit must be an integer of at least 1.');
  if (!Number.isFinite(request.leaseMs) || request.leaseMs <= 0)
    invalid('leaseMs', 'leaseMs must be a positive number of ms.');
  nonEmpty(request.workerId, 'workerId');
}

const FINISHED = ['completed', 'dead', 'cancelled'] as const;

/** Check a prune request; returns the states to delete. @throws InvalidArgumentError */
export function checkPrune(request: {
  finishedBefore: number;
  states?: readonly string[];
}): readonly ('completed' | 'dead' | 'cancelled')[] {
  if (!Number.isFinite(request.finishedBefore))
    invalid('finishedBefore', 'finishedBefore must be a finite number of ms since the epoch.');
  const states = request.states ?? FINISHED;
  for (const state of states) {
    if (!(FINISHED as readonly string[]).includes(state))
      invalid(
        'states',
        `Only finished jobs can be pruned (completed, dead, cancelled), not "${state}".`,
      );
  }
  return states as readonly ('completed' | 'dead' | 'cancelled')[];
}

/** Check a list limit; returns it or the default 100. @throws InvalidArgumentError */
export function checkListLimit(limit: number | undefined): number {
  if (limit === undefined) return 100;
  if (!Number.isSafeInteger(limit) || limit < 1)
    invalid('limit', 'limit must be an integer of at least 1.');
  return limit;
}
