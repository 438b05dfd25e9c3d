import { LlmAgent } from '../agents/llm-agent';
import type { RunCallbacks } from '../callbacks/types';
import { createRunConfig, type RunConfig } from '../context/run-config';
import { InvalidArgumentError } from '../errors/invalid-argument-error';
import { LiveNotSupportedError } from '../errors/live-not-supported-error';
import { ServiceNotConfiguredError } from '../errors/service-not-configured-error';
import type { Event } from '../events';
import { prefixedRandomUuid } from '../events/random-uuid';
import { resumedBranch } from '../history/find-caller';
import type { InvocationContext } from '../invocation/invocation-context';
import { RunCallbacksPlugin } from '../plugins/run-callbacks-plugin';
import { commitEvent } from '../runner/commit-event';
import { findAgentToRun } from '../runner/find-agent-to-run';
import { publishRunEnd, publishRunError, publishRunStart } from '../runner/run-outcome';
import { invocationContextFor, type ResumeHost } from '../runner/resume-invocation';
import { holdSession, type SessionTurns } from '../runner/session-turns';
import type { Session } from '../sessions/session';
import { storedResumptionHandle } from './live-connect-config';
import type { LiveRequest } from './live-request';
import { LiveRequestQueue } from './live-request-queue';
import { LiveRun } from './live-run';

/** Default {@link RunLiveRequest.maxReconnectAttempts}. */
export const DEFAULT_LIVE_RECONNECT_ATTEMPTS = 3;

/** Arguments of `Runner.runLive`. */
export interface RunLiveRequest {
  userId: string;
  sessionId: string;
  /**
   * The user side: a {@link LiveRequestQueue} (or any async iterable of {@link LiveRequest}s).
   * The run ends after its `close` request (or its end).
   */
  liveRequests: LiveRequestQueue | AsyncIterable<LiveRequest>;
  /** Live settings (`responseModalities`, transcriptions, `sessionResumption`, `saveLiveBlob`...). */
  runConfig?: Partial<RunConfig>;
  /** Ends the run: the connection is closed, tools get the abort, nothing partial is stored. */
  signal?: AbortSignal;
  /** Callbacks for this run only, as in `Runner.run`. */
  callbacks?: RunCallbacks;
  /** The invocation's id (default: a new random one). */
  invocationId?: string;
  /**
   * Reconnections tried in a row when the model connection drops before the user closed
   * (default 3); then the run throws `LiveConnectionLostError`. A `goAway` or an agent transfer
   * reconnects without counting.
   */
  maxReconnectAttempts?: number;
}

/** What a live run needs from the Runner: a resume host plus the session lookup. */
export interface LiveHost extends ResumeHost {
  /** The session, created when the Runner's `autoCreateSession` is on. */
  openSession(userId: string, sessionId: string): Promise<Session>;
}

/** What takes a live run's events synchronously (see {@link takeLiveEvents}). */
type LiveEventTaker = (event: Event) => boolean;

const LIVE_EVENT_TAKER = Symbol('adk.liveEventTaker');

interface LiveEvents extends AsyncGenerator<Event, void> {
  [LIVE_EVENT_TAKER]?: (take: LiveEventTaker) => void;
}

/**
 * @internal For the server's `/run_live` route: `take` gets the events of a live run (the
 * generator `Runner.runLive` returned) that need no waiting, synchronously, as they are made: a
 * partial event (an audio chunk) while no plugin has an `onEvent` hook and the reader of
 * `events` waits for its next event. It returns `true` when it handled the event in full (the
 * event is then not yielded), or `false` to get it from `events` as usual (for instance while
 * its socket is slow to drain). Everything else (stored events, the end, a failure) still comes
 * through `events`, in order with what `take` got: keep iterating it. Returns `false` when
 * `events` is not a live run of this package (nothing is registered).
 */
export function takeLiveEvents(
  events: AsyncGenerator<Event, void>,
  take: (event: Event) => boolean,
): boolean {
  const register = (events as LiveEvents)[LIVE_EVENT_TAKER];
  if (typeof register !== 'function') return false;
  register(take);
  return true;
}

/**
 * `Runner.runLive`: one live invocation on the session (see the Runner's documentation). Holds
 * the session's turn (and its `sessionLock`, when set) for its whole duration, like `run`.
 */
export function runLiveInvocation(
  host: LiveHost,
  turns: SessionTurns,
  request: RunLiveRequest,
): AsyncGenerator<Event, void> {
  const taker: { take?: LiveEventTaker } = {};
  const events: LiveEvents = liveInvocation(host, turns, request, taker);
  events[LIVE_EVENT_TAKER] = (take) => {
    taker.take = take;
  };
  return events;
}

async function* liveInvocation(
  host: LiveHost,
  turns: SessionTurns,
  request: RunLiveRequest,
  taker: { take?: LiveEventTaker },
): AsyncGenerator<Event, void> {
  if (!request.liveRequests || !(Symbol.asyncIterator in Object(request.liveRequests))) {
    throw new InvalidArgumentError({
      message: 'liveRequests must be a LiveRequestQueue or an async iterable of live requests.',
      argument: 'liveRequests',
    });
  }
  const maxReconnectAttempts = request.maxReconnectAttempts ?? DEFAULT_LIVE_RECONNECT_ATTEMPTS;
  if (!Number.isInteger(maxReconnectAttempts) || maxReconnectAttempts < 0) {
    throw new InvalidArgumentError({
      message: `maxReconnectAttempts must be an integer >= 0, got ${String(maxReconnectAttempts)}.`,
      argument: 'maxReconnectAttempts',
    });
  }
  const runConfig = createRunConfig(request.runConfig);
  if (runConfig.saveLiveBlob && !host.artifactService) {
    throw new ServiceNotConfiguredError({ service: 'artifactService' });
  }
  const { signal } = request;
  if (signal?.aborted) return;
  // Everything of the run (connection, tasks, tools) stops on this controller.
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // The session's turn in this process and, with a session lock, across processes: a text turn
    // started on another instance waits for the live run to end, as for two runs.
    const holding = holdSession(
      turns,
      host.sessionLock,
      { appName: host.appName, userId: request.userId, sessionId: request.sessionId },
      signal,
    );
    const hold = holding instanceof Promise ? await holding : holding;
    if (hold === undefined) return;
    try {
      // The loop is here rather than in a generator of its own: one generator layer less per
      // event (an audio chunk), which is the live path's hot path.
      const live = await startLiveInvocation(
        host,
        request,
        runConfig,
        controller,
        maxReconnectAttempts,
      );
      const { ctx, run, plugins, invocationId, startTime } = live;
      const showsPartials = !plugins.has('onEvent');
      let eventCount = 0;
      let failed = false;
      const take = taker.take;
      if (take && showsPartials) {
        // While this loop waits, a partial event goes to the taker at once (see takeLiveEvents).
        run.channel.sink = (item) => {
          if (!item.event.partial || item.afterCommit || controller.signal.aborted) return false;
          if (!take(item.event)) return false;
          eventCount++;
          return true;
        };
      }
      try {
        await run.start();
        for (;;) {
          const item = run.channel.take() ?? (await run.channel.next());
          if (!item || controller.signal.aborted) break;
          // A partial event (an audio chunk) is only shown: no await when no plugin looks at it.
          const stored =
            item.event.partial && showsPartials
              ? item.event
              : await commitEvent(host.sessionService, ctx, live.session, item.event);
          item.afterCommit?.(stored);
          eventCount++;
          yield stored;
        }
      } catch (error) {
        failed = true;
        publishRunError(ctx.spanId, invocationId, startTime, error);
        await plugins.onRunError(ctx, { invocationContext: ctx, error });
        throw error;
      } finally {
        await run.close();
        if (!failed) publishRunEnd(ctx.spanId, invocationId, startTime, eventCount);
      }
    } finally {
      const leaving = hold.leave();
      if (leaving) await leaving;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // A user's queue is closed with the run (aborted, or the caller stopped reading).
    if (request.liveRequests instanceof LiveRequestQueue) request.liveRequests.close();
  }
}

/** What {@link startLiveInvocation} prepared: the run and what its loop reports with. */
interface StartedLiveInvocation {
  ctx: InvocationContext;
  session: Session;
  run: LiveRun;
  plugins: InvocationContext['plugins'];
  invocationId: string;
  startTime: number;
}

/** The invocation's context, its agent checked, `runStart` published, its {@link LiveRun}. */
async function startLiveInvocation(
  host: LiveHost,
  request: RunLiveRequest,
  runConfig: RunConfig,
  controller: AbortController,
  maxReconnectAttempts: number,
): Promise<StartedLiveInvocation> {
  const plugins = request.callbacks
    ? host.plugins.with([new RunCallbacksPlugin(request.callbacks)])
    : host.plugins;
  const initializing = plugins.initialize();
  if (initializing) await initializing;
  const session = await host.openSession(request.userId, request.sessionId);
  const invocationId = request.invocationId ?? prefixedRandomUuid('e-');
  const ctx = invocationContextFor(
    host,
    invocationId,
    session,
    runConfig,
    controller.signal,
    plugins,
  );
  const agent = findAgentToRun(session, host.agent);
  if (!(agent instanceof LlmAgent)) {
    throw new LiveNotSupportedError({
      agentName: agent.name,
      message: `Agent "${agent.name}" cannot run live: only an LlmAgent can (workflow agents run turn by turn).`,
    });
  }
  const startTime = performance.now();
  publishRunStart(ctx, host.appName, startTime, agent.name);
  const run = new LiveRun({
    ctx,
    agent,
    branch: resumedBranch(session.events, agent.name),
    runConfig,
    liveRequests: request.liveRequests,
    handle: storedResumptionHandle(session.events),
    maxReconnectAttempts,
    blobScope: runConfig.saveLiveBlob
      ? {
          artifactService: host.artifactService!,
          appName: host.appName,
          userId: request.userId,
          sessionId: request.sessionId,
        }
      : undefined,
    abort: () => controller.abort(),
  });
  return { ctx, session, run, plugins, invocationId, startTime };
}
