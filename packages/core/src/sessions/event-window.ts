import { InvalidArgumentError } from '../errors';
import type { Event } from '../events';
import type { GetSessionRequest } from './session-service';

/** Check the window options of a `getSession` request; throws `InvalidArgumentError`. */
export function validateEventWindow(request: GetSessionRequest): void {
  const { numRecentEvents, afterTimestamp } = request;
  if (
    numRecentEvents !== undefined &&
    (!Number.isInteger(numRecentEvents) || numRecentEvents < 0)
  ) {
    throw new InvalidArgumentError({
      message: `numRecentEvents must be a non-negative integer, got ${String(numRecentEvents)}.`,
      argument: 'numRecentEvents',
    });
  }
  if (afterTimestamp !== undefined && !Number.isFinite(afterTimestamp)) {
    throw new InvalidArgumentError({
      message: `afterTimestamp must be a finite number of milliseconds, got ${String(afterTimestamp)}.`,
      argument: 'afterTimestamp',
    });
  }
}

/**
 * The events a `getSession` request asks for, in append order: those with
 * `timestamp >= afterTimestamp`, then the last `numRecentEvents` of them. Returns a new array whose
 * elements are the given objects (no copy).
 */
export function selectEventWindow(events: readonly Event[], request: GetSessionRequest): Event[] {
  const { numRecentEvents, afterTimestamp } = request;
  const filtered =
    afterTimestamp === undefined
      ? events
      : events.filter((event) => event.timestamp >= afterTimestamp);
  if (numRecentEvents === undefined) return filtered.slice();
  if (numRecentEvents === 0) return [];
  return filtered.slice(-numRecentEvents);
}
