import { randomUUID } from 'node:crypto';

import { createEvent, parseEvent } from '@adk/core';
import type { Session } from '@adk/core';
import { EVAL_SESSION_ID_PREFIX } from '@adk/eval';
import { Hono } from 'hono';

import type { ServerContext } from '../app/server-context';
import { httpError } from '../http/http-error';
import { readBody } from '../http/read-body';
import {
  createSessionRequestSchema,
  initialStateSchema,
  rewindSessionRequestSchema,
  updateSessionRequestSchema,
} from '../http/schemas';

const base = '/apps/:app/users/:user/sessions';

/**
 * Session routes: create (with or without an id), get, list (a plain JSON array, as the ADK web
 * UI reads it; without the sessions of eval runs, `___eval___session___…`), delete, PATCH to change
 * state through a state-delta event, and `POST …/{id}/rewind` (body `{ rewind_before_invocation_id }`,
 * the route proposed for Python ADK's api_server) to rewind it with the app's runner; it answers the
 * session as stored after the rewind, 404 for an unknown session or invocation.
 */
export function sessionRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  const service = ctx.sessionService;

  routes.get(base, async (c) => {
    const appName = c.req.param('app');
    ctx.app(appName);
    const { sessions } = await service.listSessions({ appName, userId: c.req.param('user') });
    // The sessions of eval runs are hidden, as Python ADK's server hides them (still readable by id).
    const listed = sessions.filter((session) => !session.id.startsWith(EVAL_SESSION_ID_PREFIX));
    listed.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime);
    return c.json(listed.map((session) => ctx.time.session(session)));
  });

  routes.post(base, async (c) => {
    const appName = c.req.param('app');
    const userId = c.req.param('user');
    ctx.app(appName);
    const body = await readBody(c, createSessionRequestSchema.optional());
    const session = await service.createSession({
      appName,
      userId,
      ...(body?.session_id ? { sessionId: body.session_id } : {}),
      ...(body?.state ? { state: body.state } : {}),
    });
    for (const raw of body?.events ?? []) {
      const defaults = createEvent({ invocationId: `import-${randomUUID()}`, author: 'user' });
      const event = parseEvent({
        ...defaults,
        ...raw,
        ...(typeof raw.timestamp === 'number'
          ? { timestamp: ctx.time.incoming(raw.timestamp) }
          : {}),
        actions: { ...defaults.actions, ...(raw.actions as object) },
      });
      await service.appendEvent({ session, event: { ...event, partial: false } });
    }
    return c.json(ctx.time.session(session));
  });

  routes.post(`${base}/:session`, async (c) => {
    const appName = c.req.param('app');
    ctx.app(appName);
    const state = await readBody(c, initialStateSchema);
    const session = await service.createSession({
      appName,
      userId: c.req.param('user'),
      sessionId: c.req.param('session'),
      ...(state ? { state } : {}),
    });
    return c.json(ctx.time.session(session));
  });

  routes.get(`${base}/:session`, async (c) =>
    c.json(ctx.time.session(await loadSession(ctx, c.req.param()))),
  );

  routes.delete(`${base}/:session`, async (c) => {
    const appName = c.req.param('app');
    ctx.app(appName);
    await service.deleteSession({
      appName,
      userId: c.req.param('user'),
      sessionId: c.req.param('session'),
    });
    return c.json(null);
  });

  routes.patch(`${base}/:session`, async (c) => {
    const { state_delta: stateDelta } = await readBody(c, updateSessionRequestSchema);
    const session = await loadSession(ctx, c.req.param());
    const event = createEvent({
      invocationId: `p-${randomUUID()}`,
      author: 'user',
      actions: { stateDelta },
    });
    await service.appendEvent({ session, event });
    return c.json(ctx.time.session(session));
  });

  routes.post(`${base}/:session/rewind`, async (c) => {
    const params = c.req.param();
    const app = ctx.app(params.app);
    const body = await readBody(c, rewindSessionRequestSchema);
    if (!app.runner.rewind)
      throw httpError(501, `The runner of app ${params.app} cannot rewind sessions.`);
    await app.runner.rewind({
      userId: params.user,
      sessionId: params.session,
      rewindBeforeInvocationId: body.rewind_before_invocation_id,
    });
    return c.json(ctx.time.session(await loadSession(ctx, params)));
  });

  return routes;
}

/** The session named by the route, or a 404. */
export async function loadSession(
  ctx: ServerContext,
  params: { app: string; user: string; session: string },
): Promise<Session> {
  ctx.app(params.app);
  const session = await ctx.sessionService.getSession({
    appName: params.app,
    userId: params.user,
    sessionId: params.session,
  });
  if (!session) throw httpError(404, `Session not found: ${params.session}`, 'SESSION_NOT_FOUND');
  return session;
}
