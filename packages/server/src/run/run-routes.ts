import type { Event } from '@adk/core';
import { Hono } from 'hono';
import type { Context } from 'hono';

import type { ServerContext } from '../app/server-context';
import type { AppRunRequest, ResolvedApp } from '../app/types';
import { ClientDisconnectedError } from '../errors';
import { httpError } from '../http/http-error';
import { readBody } from '../http/read-body';
import { runAgentRequestSchema, type RunAgentRequest } from '../http/schemas';
import { SSE_KEEP_ALIVE, sseErrorEvent, sseFrame } from './sse';

interface PreparedRun {
  app: ResolvedApp;
  request: RunAgentRequest;
  /** Aborted when the client disconnects. */
  controller: AbortController;
  runRequest: AppRunRequest;
}

async function prepare(ctx: ServerContext, c: Context): Promise<PreparedRun> {
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
  const clientSignal = c.req.raw.signal;
  const onClientAbort = () =>
    controller.abort(new ClientDisconnectedError({ cause: clientSignal.reason }));
  if (clientSignal.aborted) onClientAbort();
  else clientSignal.addEventListener('abort', onClientAbort, { once: true });
  return {
    app,
    request,
    controller,
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
 * `data: <event JSON>\n\n` frame per event, partial events included when `streaming` is true).
 * A client that disconnects aborts the run; events already stored stay stored.
 */
export function runRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();

  routes.post('/run', async (c) => {
    const { app, request, runRequest } = await prepare(ctx, c);
    const events: Event[] = [];
    for await (const event of app.runner.run(runRequest)) {
      ctx.traces.linkEvent(request.session_id, event);
      events.push(event);
    }
    return c.json(events.map((event) => ctx.time.event(event)));
  });

  routes.post('/run_sse', async (c) => {
    const { app, request, controller, runRequest } = await prepare(ctx, c);
    const iterator = app.runner.run(runRequest);
    let invocationId = '';
    let keepAlive: NodeJS.Timeout | undefined;
    const stopKeepAlive = () => clearInterval(keepAlive);
    const keepAliveMs = ctx.options.sseKeepAliveMs ?? 15_000;
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        if (keepAliveMs <= 0) return;
        keepAlive = setInterval(() => {
          try {
            stream.enqueue(SSE_KEEP_ALIVE);
          } catch {
            stopKeepAlive(); // the stream is already closed
          }
        }, keepAliveMs);
        keepAlive.unref();
      },
      async pull(stream) {
        try {
          const next = await iterator.next();
          if (next.done) {
            stopKeepAlive();
            return stream.close();
          }
          invocationId = next.value.invocationId;
          ctx.traces.linkEvent(request.session_id, next.value);
          stream.enqueue(sseFrame(ctx.time.event(next.value)));
        } catch (error) {
          stopKeepAlive();
          if (controller.signal.aborted) return; // the client is gone: nobody to tell
          stream.enqueue(sseFrame(sseErrorEvent(error, invocationId, app.agent.name)));
          stream.close();
        }
      },
      async cancel(reason) {
        stopKeepAlive();
        controller.abort(new ClientDisconnectedError({ cause: reason }));
        await iterator.return(undefined).catch(() => undefined);
      },
    });
    return new Response(body, {
      headers: {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'x-accel-buffering': 'no',
      },
    });
  });

  return routes;
}
