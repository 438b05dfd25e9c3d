import { Hono } from 'hono';

import type { ServerContext } from '../app/server-context';

/**
 * The evaluation lists the ADK web UI asks for when it opens an app. This server runs no
 * evaluations, so they are empty (in both the legacy and the current spelling of the routes).
 */
export function evalRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  routes.get('/apps/:app/eval_sets', (c) => (ctx.app(c.req.param('app')), c.json([])));
  routes.get('/apps/:app/eval_results', (c) => (ctx.app(c.req.param('app')), c.json([])));
  routes.get(
    '/apps/:app/eval-sets',
    (c) => (ctx.app(c.req.param('app')), c.json({ evalSetIds: [] })),
  );
  routes.get(
    '/apps/:app/eval-results',
    (c) => (ctx.app(c.req.param('app')), c.json({ evalResultIds: [] })),
  );
  return routes;
}
