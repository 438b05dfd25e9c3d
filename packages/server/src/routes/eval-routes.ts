import { Hono } from 'hono';
import type { Context } from 'hono';

import type { ServerContext } from '../app/server-context';

/**
 * The evaluation lists the ADK web UI asks for when it opens an app. This server runs no
 * evaluations, so they are empty (under every spelling of the routes the UIs use).
 */
export function evalRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  const empty = (body: unknown) => (c: Context) => {
    ctx.app(c.req.param('app')!);
    return c.json(body);
  };
  for (const prefix of ['/apps/:app', '/dev/apps/:app']) {
    routes.get(`${prefix}/eval_sets`, empty([]));
    routes.get(`${prefix}/eval_results`, empty([]));
    routes.get(`${prefix}/eval-sets`, empty({ evalSetIds: [] }));
    routes.get(`${prefix}/eval-results`, empty({ evalResultIds: [] }));
    routes.get(`${prefix}/metrics-info`, empty({ metricsInfo: [] }));
  }
  return routes;
}
