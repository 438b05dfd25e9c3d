import { publish } from '../diagnostics/channels';
import type { InvocationContext } from '../invocation/invocation-context';

/**
 * `runStart` of the run, resume or live run of `ctx`, started at `startTime`, by `agentName` (the
 * agent that answers; default the context's agent, the root).
 */
export function publishRunStart(
  ctx: InvocationContext,
  appName: string,
  startTime: number,
  agentName: string = ctx.agent.name,
): void {
  publish('runStart', () => ({
    spanId: ctx.spanId,
    parentSpanId: undefined,
    invocationId: ctx.invocationId,
    appName,
    userId: ctx.userId,
    sessionId: ctx.sessionId,
    startTime,
    agentName,
  }));
}

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
