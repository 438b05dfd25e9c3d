import { randomUUID } from 'node:crypto';

import { Runner, SessionNotFoundError, type Event } from '@adk/core';
import { Hono } from 'hono';
import type { Context } from 'hono';

import type { ServerContext } from '../app/server-context';
import type { AppRunRequest, ResolvedApp } from '../app/types';
import { ClientDisconnectedError, ServerShuttingDownError } from '../errors';
import { httpError } from '../http/http-error';
import { readBody } from '../http/read-body';
import { runAgentRequestSchema, type RunAgentRequest } from '../http/schemas';
import { sseResponse } from './event-stream';
import { followInvocation } from './follow-invocation';
import type { TrackedRun } from './run-tracker';
import { sseErrorEvent, sseFrameText } from './sse';

interface PreparedRun {
  app: ResolvedApp;
  request: RunAgentRequest;
  /** Aborted at the end of a shutdown deadline (and, with `abortRunOnDisconnect`, by the client). */
  controller: AbortController;
  runRequest: AppRunRequest;
  tracked: TrackedRun;
  abortOnDisconnect: boolean;
  /**
   * The session's existence is left to the runner (a core `Runner`, which throws
   * `SessionNotFoundError` before its first event): see `confirmSession`.
   */
  runnerChecksSession: boolean;
}

/**
 * How long a `/run_sse` waits for its runner to start (see `confirmSession`) before reading the
 * session itself: the runner waits first for a turn in flight on the session to end.
 */
const RUN_START_WAIT_MS = 100;

const sessionNotFound = (sessionId: string) =>
  httpError(404, `Session not found: ${sessionId}`, 'SESSION_NOT_FOUND');

async function sessionExists(ctx: ServerContext, request: RunAgentRequest): Promise<boolean> {
  const session = await ctx.sessionService.getSession({
    appName: request.app_name,
    userId: request.user_id,
    sessionId: request.session_id,
    numRecentEvents: 0,
  });
  return session !== undefined;
}

async function prepare(ctx: ServerContext, c: Context): Promise<PreparedRun> {
  if (ctx.runs.draining)
    throw new ServerShuttingDownError({ message: 'The server is shutting down.' });
  const request = await readBody(c, runAgentRequestSchema);
  const app = ctx.app(request.app_name);
  // A core Runner reads the session anyway, and refuses a missing one before its first event: the
  // server does not read it a second time. Any other runner's session is checked here.
  const runnerChecksSession = !app.autoCreateSession && app.runner instanceof Runner;
  if (!app.autoCreateSession && !runnerChecksSession && !(await sessionExists(ctx, request)))
    throw sessionNotFound(request.session_id);
  const controller = new AbortController();
  const abortOnDisconnect =
    request.abort_on_disconnect ?? ctx.options.abortRunOnDisconnect ?? false;
  if (abortOnDisconnect) {
    const clientSignal = c.req.raw.signal;
    const onClientAbort = () =>
      controller.abort(new ClientDisconnectedError({ cause: clientSignal.reason }));
    if (clientSignal.aborted) onClientAbort();
    else clientSignal.addEventListener('abort', onClientAbort, { once: true });
  }
  const tracked = ctx.runs.begin(controller);
  return {
    app,
    request,
    controller,
    tracked,
    abortOnDisconnect,
    runnerChecksSession,
    runRequest: {
      userId: request.user_id,
      sessionId: request.session_id,
      newMessage: { ...request.new_message, role: request.new_message.role ?? 'user' },
      ...(request.state_delta ? { stateDelta: request.state_delta } : {}),
      runConfig: { streamingMode: request.streaming ? 'sse' : 'none' },
      signal: controller.signal,
      ...(runnerChecksSession ? { invocationId: `e-${randomUUID()}` } : {}),
    },
  };
}

/** Whether `error` is the runner's refusal of the request's missing session. */
const isMissingSession = (error: unknown, request: RunAgentRequest) =>
  SessionNotFoundError.isInstance(error) &&
  error.appName === request.app_name &&
  error.userId === request.user_id &&
  error.sessionId === request.session_id;

/**
 * Before a `/run_sse` answers 200: whether the session exists, told by its runner (see
 * `PreparedRun.runnerChecksSession`). The runner is started (its first step is returned, to be
 * the stream's first item, without waiting for it); the answer is its start (it read the session) or its first step
 * settling (a missing session is a `SessionNotFoundError` then). A runner that has not started
 * within `RUN_START_WAIT_MS` (it waits for a turn in flight on the session) is not waited for: the
 * session is read here, as for other runners. A missing session ends the run and answers 404.
 */
async function confirmSession(
  ctx: ServerContext,
  run: PreparedRun,
  iterator: AsyncGenerator<Event, void>,
): Promise<{ first: Promise<IteratorResult<Event, void>> }> {
  const waiting = ctx.runStarts.wait(run.runRequest.invocationId!);
  const first = iterator.next();
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    waiting.started.then(() => 'started' as const),
    first.then(
      () => 'settled' as const,
      () => 'settled' as const,
    ),
    new Promise<'slow'>((resolve) => (timer = setTimeout(resolve, RUN_START_WAIT_MS, 'slow'))),
  ]);
  clearTimeout(timer);
  waiting.cancel();
  // Nobody will read this run: stop it, and end its tracking once it has stopped.
  const stop = () => {
    run.controller.abort();
    void first
      .then(() => iterator.return(undefined))
      .catch(() => undefined)
      .finally(() => run.tracked.end());
  };
  let missing: boolean;
  if (outcome === 'started') missing = false;
  else if (outcome === 'settled')
    missing = await first.then(
      () => false,
      (error: unknown) => isMissingSession(error, run.request),
    );
  else {
    try {
      missing = !(await sessionExists(ctx, run.request));
    } catch (error) {
      stop(); // the read failed: answered as any failed request
      throw error;
    }
  }
  // In an object: an async function's promise result would be awaited with it.
  if (!missing) return { first };
  stop();
  throw sessionNotFound(run.request.session_id);
}

/**
 * `POST /run` (every event of the turn as one JSON array) and `POST /run_sse` (one
 * `data: <event JSON>\n\n` frame per event, partial events included when `streaming` is true;
 * stored events carry `id: <event id>`).
 *
 * A client that disconnects does not stop the run (unless `abortRunOnDisconnect`): it goes on and
 * stores its events. Posting `/run_sse` again with a `Last-Event-ID` header, to any instance that
 * shares the session store, starts no new invocation: the stream carries the stored events of the
 * invocation after that id, then the new ones until the invocation ends.
 */
export function runRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();

  routes.post('/run', async (c) => {
    const { app, request, runRequest, tracked, runnerChecksSession } = await prepare(ctx, c);
    const events: Event[] = [];
    try {
      for await (const event of app.runner.run(runRequest)) {
        tracked.setInvocation(event.invocationId);
        ctx.traces.linkEvent(request.session_id, event);
        events.push(event);
      }
    } catch (error) {
      if (runnerChecksSession && events.length === 0 && isMissingSession(error, request))
        throw sessionNotFound(request.session_id);
      throw error;
    } finally {
      tracked.end();
    }
    return c.json(events.map((event) => ctx.time.event(event)));
  });

  routes.post('/run_sse', async (c) => {
    const lastEventId = c.req.header('last-event-id');
    if (lastEventId) return resumeStream(ctx, c, lastEventId);
    const run = await prepare(ctx, c);
    const { app, request, controller, runRequest, tracked, abortOnDisconnect } = run;
    const iterator = app.runner.run(runRequest);
    // The runner's first step, already taken when the runner tells whether the session exists.
    let first = run.runnerChecksSession
      ? (await confirmSession(ctx, run, iterator)).first
      : undefined;
    let invocationId = '';
    const next = async (): Promise<IteratorResult<Event, void>> => {
      const step = first ?? iterator.next();
      first = undefined;
      const result = await step;
      if (!result.done) {
        invocationId = result.value.invocationId;
        tracked.setInvocation(invocationId);
        ctx.traces.linkEvent(request.session_id, result.value);
      }
      return result;
    };
    return sseResponse<Event>(
      { next },
      {
        keepAliveMs: ctx.options.sseKeepAliveMs ?? 15_000,
        frame: (event) => sseFrameText(ctx.time.event(event), event.partial ? undefined : event.id),
        errorFrame: (error) =>
          // A client that aborted the run is gone: nobody to tell.
          ClientDisconnectedError.isInstance(controller.signal.reason)
            ? undefined
            : sseFrameText(sseErrorEvent(error, invocationId, app.agent.name)),
        onEnd: () => tracked.end(),
        onCancel: (reason) => {
          if (abortOnDisconnect) {
            controller.abort(new ClientDisconnectedError({ cause: reason }));
            void iterator
              .return(undefined)
              .catch(() => undefined)
              .finally(() => tracked.end());
            return;
          }
          // The run goes on without its client; a reconnect reads what it stores.
          void (async () => {
            try {
              while (!(await next()).done);
            } catch {
              // The run's own error events are stored; nothing else to do without a client.
            } finally {
              tracked.end();
            }
          })();
        },
      },
      c.env,
    );
  });

  return routes;
}

/**
 * Continue, on this instance, an invocation whose instance died (see `followInvocation`): a run of
 * `runner.resume` tracked like any run here (drained on shutdown, followed to its end by the
 * streams that wait for it), its events stored as usual. Its errors are stored as error events.
 */
function resumeOrphan(
  ctx: ServerContext,
  app: ResolvedApp,
  request: RunAgentRequest,
  invocationId: string,
): void {
  const controller = new AbortController();
  let tracked: TrackedRun;
  try {
    tracked = ctx.runs.begin(controller);
  } catch {
    return; // draining: another instance resumes it on the client's next reconnect
  }
  tracked.setInvocation(invocationId);
  void (async () => {
    try {
      for await (const event of app.runner.resume!({
        userId: request.user_id,
        sessionId: request.session_id,
        invocationId,
        signal: controller.signal,
      }))
        ctx.traces.linkEvent(request.session_id, event);
    } catch {
      // Nothing more to do here: the follow ends with RUN_STREAM_STALLED after its idle limit.
    } finally {
      tracked.end();
    }
  })();
}

async function resumeStream(
  ctx: ServerContext,
  c: Context,
  lastEventId: string,
): Promise<Response> {
  const request = await readBody(c, runAgentRequestSchema);
  const app = ctx.app(request.app_name);
  const controller = new AbortController();
  const pollMs = ctx.options.resumePollMs ?? 250;
  const lock = app.runner.resume ? app.runner.sessionLock : undefined;
  const key = { appName: request.app_name, userId: request.user_id, sessionId: request.session_id };
  const events = await followInvocation(ctx.sessionService, {
    ...key,
    lastEventId,
    signal: controller.signal,
    pollMs,
    idleMs: ctx.options.resumeIdleMs ?? 30_000,
    isRunning: (invocationId) => ctx.runs.isRunning(invocationId),
    ...(lock
      ? {
          // Held by a live instance, the lock stays taken for the wait; free, it is ours at once.
          turnIsFree: async () => {
            const release = await lock.acquire(key, AbortSignal.timeout(pollMs));
            await release?.();
            return release !== undefined;
          },
          resume: (invocationId) => resumeOrphan(ctx, app, request, invocationId),
        }
      : {}),
  });
  let invocationId = '';
  return sseResponse<Event>(
    events,
    {
      keepAliveMs: ctx.options.sseKeepAliveMs ?? 15_000,
      frame: (event) => {
        invocationId = event.invocationId;
        return sseFrameText(ctx.time.event(event), event.id);
      },
      errorFrame: (error) => sseFrameText(sseErrorEvent(error, invocationId, app.agent.name)),
      onCancel: () => {
        controller.abort();
        void events.return(undefined).catch(() => undefined);
      },
    },
    c.env,
  );
}
