import type { Event } from '@adk/core';
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
import { sseErrorEvent, sseFrame } from './sse';

interface PreparedRun {
  app: ResolvedApp;
  request: RunAgentRequest;
  /** Aborted at the end of a shutdown deadline (and, with `abortRunOnDisconnect`, by the client). */
  controller: AbortController;
  runRequest: AppRunRequest;
  tracked: TrackedRun;
  abortOnDisconnect: boolean;
}

async function prepare(ctx: ServerContext, c: Context): Promise<PreparedRun> {
  if (ctx.runs.draining)
    throw new ServerShuttingDownError({ message: 'The server is shutting down.' });
  const request = await readBody(c, runAgentRequestSchema);
  const app = ctx.app(request.app_name);
  if (!app.autoCreateSession) {
    const session = await ctx.sessionService.getSession({
      appName: request.app_name,
      userId: request.user_id,
      sessionId: request.session_id,
      numRecentEvents: 0,
    });
    if (!session)
      throw httpError(404, `Session not found: ${request.session_id}`, 'SESSION_NOT_FOUND');
  }
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
    runRequest: {
      userId: request.user_id,
      sessionId: request.session_id,
      newMessage: { ...request.new_message, role: request.new_message.role ?? 'user' },
      ...(request.state_delta ? { stateDelta: request.state_delta } : {}),
      runConfig: { streamingMode: request.streaming ? 'sse' : 'none' },
      signal: controller.signal,
    },
  };
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
    const { app, request, runRequest, tracked } = await prepare(ctx, c);
    const events: Event[] = [];
    try {
      for await (const event of app.runner.run(runRequest)) {
        tracked.setInvocation(event.invocationId);
        ctx.traces.linkEvent(request.session_id, event);
        events.push(event);
      }
    } finally {
      tracked.end();
    }
    return c.json(events.map((event) => ctx.time.event(event)));
  });

  routes.post('/run_sse', async (c) => {
    const lastEventId = c.req.header('last-event-id');
    if (lastEventId) return resumeStream(ctx, c, lastEventId);
    const { app, request, controller, runRequest, tracked, abortOnDisconnect } = await prepare(
      ctx,
      c,
    );
    const iterator = app.runner.run(runRequest);
    let invocationId = '';
    const next = async (): Promise<IteratorResult<Event, void>> => {
      const result = await iterator.next();
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
        frame: (event) => sseFrame(ctx.time.event(event), event.partial ? undefined : event.id),
        errorFrame: (error) =>
          // A client that aborted the run is gone: nobody to tell.
          ClientDisconnectedError.isInstance(controller.signal.reason)
            ? undefined
            : sseFrame(sseErrorEvent(error, invocationId, app.agent.name)),
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
  return sseResponse<Event>(events, {
    keepAliveMs: ctx.options.sseKeepAliveMs ?? 15_000,
    frame: (event) => {
      invocationId = event.invocationId;
      return sseFrame(ctx.time.event(event), event.id);
    },
    errorFrame: (error) => sseFrame(sseErrorEvent(error, invocationId, app.agent.name)),
    onCancel: () => {
      controller.abort();
      void events.return(undefined).catch(() => undefined);
    },
  });
}
