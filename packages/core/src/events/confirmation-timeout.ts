import type { ToolConfirmation } from './event-actions';
import { InvalidArgumentError } from '../errors/invalid-argument-error';

/**
 * How long a requested confirmation may wait, kept beside the request object rather than in it:
 * `actions.requestedToolConfirmations` is stored in the official ADKs' shape (which refuses unknown
 * members), so the timeout travels from `toolContext.requestConfirmation` to the request event
 * here, and the request event stores the resulting deadline in its call's arguments.
 */
const timeouts = new WeakMap<ToolConfirmation, number>();

/** Attach `timeoutMs` to a pending confirmation request (internal to the flow). */
export function setConfirmationTimeout(request: ToolConfirmation, timeoutMs: number): void {
  timeouts.set(request, timeoutMs);
}

/** The timeout attached to a pending confirmation request, if any. */
export function confirmationTimeoutOf(request: ToolConfirmation): number | undefined {
  return timeouts.get(request);
}

/**
 * `timeoutMs` when it is a usable confirmation timeout (a finite number above 0); `undefined` stays
 * `undefined` (no deadline).
 * @throws InvalidArgumentError otherwise, naming `argument`.
 */
export function checkConfirmationTimeout(
  timeoutMs: number | undefined,
  argument: string,
  owner?: string,
): number | undefined {
  if (timeoutMs === undefined) return undefined;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new InvalidArgumentError({
      message: `${owner === undefined ? '' : `${owner}: `}${argument} must be a finite number of milliseconds above 0, got ${String(timeoutMs)}.`,
      argument,
    });
  }
  return timeoutMs;
}
