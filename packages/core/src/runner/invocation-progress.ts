import type { FunctionCall } from '../content';
import type { Event } from '../events';
import { isFinalResponse } from '../events/is-final-response';

/** A function call of an invocation and, when stored, the event holding its response. */
export interface InvocationCall {
  call: FunctionCall;
  /** The event that requested the call. */
  callEvent: Event;
  /** The event holding its response; `undefined` while the call is pending. */
  responseEvent: Event | undefined;
  /** True when the call's tool is long-running (the invocation waits on it on purpose). */
  longRunning: boolean;
}

/**
 * What the session's event log says about one invocation: the shared reading behind
 * `runner.resume`, durable background jobs, and any other resume (graph workflows) that continues
 * an invocation from its stored events instead of starting it over.
 */
export interface InvocationProgress {
  invocationId: string;
  /** The invocation's stored events, in session order (empty when it has none). */
  events: readonly Event[];
  /** The user's message that started it (the first `user` event of the invocation). */
  userEvent: Event | undefined;
  /** Every function call of the invocation, in request order, with its response when stored. */
  calls: readonly InvocationCall[];
  /** Calls whose response is stored: their results are reused, never executed again. */
  answered: readonly InvocationCall[];
  /**
   * Calls started but not answered and not long-running: the run stopped while they ran (or
   * before they started). A resume re-executes them only if their tool is idempotent.
   */
  interrupted: readonly InvocationCall[];
  /** The last stored event of the invocation: where a resume continues from. */
  lastEvent: Event | undefined;
  /**
   * True when nothing is left to do: the last stored event is a final response of an agent (not
   * the user's message, not an error event) and no call is interrupted.
   */
  finished: boolean;
}

/**
 * Read one invocation's progress from a session's events: which calls are answered, which were
 * interrupted, and the last stored event.
 *
 * @example
 * ```ts
 * const progress = readInvocationProgress(session.events, invocationId);
 * if (!progress.finished) for (const { call } of progress.interrupted) console.log('cut short:', call.name);
 * ```
 */
export function readInvocationProgress(
  events: readonly Event[],
  invocationId: string,
): InvocationProgress {
  const own = events.filter((event) => event.invocationId === invocationId);
  const calls: InvocationCall[] = [];
  const byId = new Map<string, InvocationCall>();
  for (const event of own) {
    for (const part of event.content?.parts ?? []) {
      if (part.functionCall) {
        const entry: InvocationCall = {
          call: part.functionCall,
          callEvent: event,
          responseEvent: undefined,
          longRunning: event.longRunningToolIds?.includes(part.functionCall.id ?? '') ?? false,
        };
        calls.push(entry);
        if (part.functionCall.id) byId.set(part.functionCall.id, entry);
      }
      if (part.functionResponse?.id) {
        const entry = byId.get(part.functionResponse.id);
        if (entry && entry.responseEvent === undefined) entry.responseEvent = event;
      }
    }
  }
  const answered = calls.filter((entry) => entry.responseEvent !== undefined);
  const interrupted = calls.filter((entry) => !entry.responseEvent && !entry.longRunning);
  const lastEvent = own.at(-1);
  const finished =
    lastEvent !== undefined &&
    lastEvent.author !== 'user' &&
    isFinalResponse(lastEvent) &&
    lastEvent.errorCode === undefined &&
    interrupted.length === 0;
  return {
    invocationId,
    events: own,
    userEvent: own.find((event) => event.author === 'user'),
    calls,
    answered,
    interrupted,
    lastEvent,
    finished,
  };
}
