import type { FunctionCall } from '../content';
import type { Event } from '../events';
import { isFinalResponse } from '../events/is-final-response';
import {
  isPauseEvent,
  readStoredWorkflowRun,
  workflowRecordOf,
  type StoredWorkflowRun,
} from './run-records';

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
 * A step-recorded run (a graph workflow's, see `readStoredWorkflowRun`) that the invocation worked
 * on last and that has no end record: the agent that wrote it continues it when it runs again.
 */
export interface OpenRun {
  /** The agent that records the run (its events' author). */
  author: string;
  /** The branch its records are on. */
  branch: string | undefined;
  /** What it stored so far: the outputs to reuse, the steps still paused. */
  run: StoredWorkflowRun;
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
  /**
   * Step-recorded runs (graph workflows) this invocation worked on last and did not end, outermost
   * first: their finished steps are reused, and a resume starts their agent again to continue them.
   */
  openRuns: readonly OpenRun[];
  /** The last stored event of the invocation: where a resume continues from. */
  lastEvent: Event | undefined;
  /**
   * True when nothing is left to do: the last stored event is a final response of an agent (not
   * the user's message, not an error event), no call is interrupted, and no step-recorded run is
   * open, unless the invocation ended on a pause (its last event waits on long-running calls: an
   * answer, not a resume, continues it).
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
  const openRuns = readOpenRuns(events, own, invocationId);
  const paused = lastEvent !== undefined && isPauseEvent(lastEvent);
  const finished =
    lastEvent !== undefined &&
    lastEvent.author !== 'user' &&
    isFinalResponse(lastEvent) &&
    lastEvent.errorCode === undefined &&
    interrupted.length === 0 &&
    (openRuns.length === 0 || paused);
  return {
    invocationId,
    events: own,
    userEvent: own.find((event) => event.author === 'user'),
    calls,
    answered,
    interrupted,
    openRuns,
    lastEvent,
    finished,
  };
}

/**
 * The runs the invocation's events record (one per author and branch) that are still open and
 * that this invocation worked on last (a later invocation that continued a run owns it), in the
 * order of their first record here: an outer workflow records its run before its nested ones.
 */
function readOpenRuns(
  events: readonly Event[],
  own: readonly Event[],
  invocationId: string,
): OpenRun[] {
  const open: OpenRun[] = [];
  const seen = new Set<string>();
  for (const event of own) {
    const record = workflowRecordOf(event);
    if (!record || record.workflow !== event.author) continue;
    const key = `${event.author}\u0000${event.branch ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const run = readStoredWorkflowRun(events, event.author, event.branch);
    if (run?.lastInvocationId === invocationId)
      open.push({ author: event.author, branch: event.branch, run });
  }
  return open;
}
