import { Hono } from 'hono';

import type { ServerContext } from '../app/server-context';
import { httpError } from '../http/http-error';
import { readBody } from '../http/read-body';
import { updateMemoryRequestSchema } from '../http/schemas';
import { loadSession } from './session-routes';

/** `PATCH /apps/{app}/users/{user}/memory`: add a session's events to long-term memory. */
export function memoryRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  routes.patch('/apps/:app/users/:user/memory', async (c) => {
    const memory = ctx.options.memoryService;
    if (!memory) throw httpError(400, 'Memory service is not configured.');
    const { session_id: sessionId } = await readBody(c, updateMemoryRequestSchema);
    const session = await loadSession(ctx, {
      app: c.req.param('app'),
      user: c.req.param('user'),
      session: sessionId,
    });
    await memory.addSessionToMemory(session);
    return c.json(null);
  });
  return routes;
}
