import { publish } from '../diagnostics/channels';

/**
 * How a run, a resume or a live run ended, on the diagnostics channels (`runError` or `runEnd`),
 * with its duration from `startTime` (a `performance.now()` reading taken at `runStart`). The
 * message is built only when the channel has subscribers.
 */
export function publishRunError(
  spanId: string,
  invocationId: string,
  startTime: number,
  error: unknown,
): void {
  publish('runError', () => ({
    spanId,
    invocationId,
    durationMs: performance.now() - startTime,
    error,
  }));
}

/** See {@link publishRunError}: a run that ended without an error, after `eventCount` events. */
export function publishRunEnd(
  spanId: string,
  invocationId: string,
  startTime: number,
  eventCount: number,
): void {
  publish('runEnd', () => ({
    spanId,
    invocationId,
    durationMs: performance.now() - startTime,
    eventCount,
  }));
}
