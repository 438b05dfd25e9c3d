import { readInvocationProgress, type Event, type SessionService } from '@adk/core';

import { RunStreamStalledError } from '../errors/run-stream-stalled-error';
import { httpError } from '../http/http-error';

/** What {@link followInvocation} reads and how long it waits. */
export interface FollowInvocationOptions {
  appName: string;
  userId: string;
  sessionId: string;
  /** The id of the last event the client received (the SSE `Last-Event-ID`). */
  lastEventId: string;
  /** Ends the follow (the client went away). */
  signal: AbortSignal;
  /** How often the session is read for new events (milliseconds). */
  pollMs: number;
  /**
   * How long to wait without a new event of an invocation that runs on no instance this one knows
   * of before ending with {@link RunStreamStalledError} (milliseconds).
   */
  idleMs: number;
  /** Whether the invocation runs on this instance (then the follow waits for its end). */
  isRunning(invocationId: string): boolean;
  /**
   * Whether no instance holds the session's turn now (the session lock taken and given back at
   * once): then an unfinished invocation that runs nowhere lost its instance. Without it, such an
   * invocation is only given up after `idleMs`.
   */
  turnIsFree?(): Promise<boolean>;
  /**
   * Continue the invocation on this instance (`runner.resume`, in the background, its events
   * stored as usual): called at most once per follow, when `turnIsFree` says its instance is gone.
   */
  resume?(invocationId: string): void;
}

/**
 * The stored events of the invocation that `lastEventId` belongs to, after that event, then each
 * new one as the run stores it (on this instance or another one sharing the session store), until
 * the invocation ends: a final answer (once no instance here runs it and nothing follows within a
 * poll), an error event, or a pause on long-running tools. Partial (streamed) events are never
 * stored, so a resumed stream carries whole events only.
 *
 * Resolves once the session and the event are found (so a route can answer 404 before it starts
 * streaming).
 *
 * @throws HttpError 404 when the session or the event does not exist.
 */
export async function followInvocation(
  sessions: SessionService,
  options: FollowInvocationOptions,
): Promise<AsyncGenerator<Event, void>> {
  const { appName, userId, sessionId, lastEventId } = options;
  const session = await sessions.getSession({ appName, userId, sessionId });
  if (!session) throw httpError(404, `Session not found: ${sessionId}`, 'SESSION_NOT_FOUND');
  const index = session.events.findIndex((event) => event.id === lastEventId);
  if (index < 0) {
    throw httpError(
      404,
      `Event ${lastEventId} is not in session ${sessionId}: cannot resume the stream.`,
      'EVENT_NOT_FOUND',
    );
  }
  return follow(sessions, options, session.events, index);
}

/**
 * The events after `events[index]` of its invocation, then the new ones.
 *
 * @throws RunStreamStalledError when the invocation stores nothing for `idleMs` and does not run here.
 */
async function* follow(
  sessions: SessionService,
  options: FollowInvocationOptions,
  events: readonly Event[],
  index: number,
): AsyncGenerator<Event, void> {
  const { appName, userId, sessionId } = options;
  const invocationId = events[index]!.invocationId;
  const own: Event[] = [];
  const seen = new Set<string>();
  let cursor = 0;
  const take = (event: Event): boolean => {
    cursor = Math.max(cursor, event.timestamp);
    if (event.invocationId !== invocationId || seen.has(event.id)) return false;
    seen.add(event.id);
    own.push(event);
    return true;
  };
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (take(event) && i > index) yield event;
  }
  let lastProgress = Date.now();
  let quietPolls = 0;
  let resumed = false;
  while (!options.signal.aborted) {
    const running = options.isRunning(invocationId);
    if (!running && ended(own) && quietPolls > 0) return;
    // Quiet, unfinished and not running here: is its turn held anywhere? Checked before the read,
    // so the read sees whatever the last holder stored.
    const orphaned =
      !running &&
      !resumed &&
      quietPolls > 0 &&
      !ended(own) &&
      options.resume !== undefined &&
      (await options.turnIsFree?.()) === true;
    if (!orphaned) await sleep(options.pollMs, options.signal);
    if (options.signal.aborted) return;
    const fresh = await sessions.getSession({ appName, userId, sessionId, afterTimestamp: cursor });
    let progressed = false;
    for (const event of fresh?.events ?? []) {
      if (take(event)) {
        progressed = true;
        yield event;
      }
    }
    if (orphaned && !ended(own)) {
      resumed = true;
      options.resume!(invocationId);
      lastProgress = Date.now();
      quietPolls = 0;
      continue;
    }
    if (progressed) {
      lastProgress = Date.now();
      quietPolls = 0;
      continue;
    }
    quietPolls++;
    if (!running && !ended(own) && Date.now() - lastProgress >= options.idleMs) {
      throw new RunStreamStalledError({ invocationId, idleMs: options.idleMs });
    }
  }
}

/** Whether the invocation's stored events end it: a final answer, an error, or a pause. */
function ended(events: readonly Event[]): boolean {
  const last = events.at(-1);
  if (!last) return false;
  if (last.errorCode !== undefined || (last.longRunningToolIds?.length ?? 0) > 0) return true;
  return readInvocationProgress(events, last.invocationId).finished;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
