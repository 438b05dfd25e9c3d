import { getFunctionCalls, getFunctionResponses } from '@adk/core';
import type { Event } from '@adk/core';
import { Hono } from 'hono';
import type { Context } from 'hono';

import type { ServerContext } from '../app/server-context';
import {
  agentGraphDot,
  describeAgent,
  findAgentByPath,
  workflowPathHighlights,
  type GraphHighlight,
} from '../graph';
import { httpError } from '../http/http-error';
import { loadSession } from './session-routes';

/** What to highlight for an event: its calls, its responses, or its author alone; plus transfers. */
function highlightsOf(event: Event): GraphHighlight[] {
  const calls = getFunctionCalls(event.content);
  const responses = getFunctionResponses(event.content);
  let highlights: GraphHighlight[];
  if (calls.length > 0) highlights = calls.map((call) => [event.author, call.name] as const);
  else if (responses.length > 0)
    highlights = responses.map((response) => [response.name, event.author] as const);
  else highlights = [[event.author, '']];
  if (event.actions.transferToAgent) highlights.push([event.author, event.actions.transferToAgent]);
  return highlights;
}

/**
 * Debug routes the ADK web UI shows: traces per event and per session, the agent graph (plain
 * or with one event's agents and tools highlighted), and the app's agent tree. Each exists under
 * the Python server's path and under the `/dev/apps/{app}/...` path newer web UIs call.
 */
export function debugRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();

  const sessionTrace = (c: Context) => c.json(ctx.traces.sessionTrace(c.req.param('session')!));
  routes.get('/debug/trace/session/:session', sessionTrace);
  routes.get('/dev/apps/:app/debug/trace/session/:session', sessionTrace);

  const eventTrace = (c: Context) => {
    const trace = ctx.traces.eventTrace(c.req.param('event')!);
    if (!trace) throw httpError(404, 'Trace not found');
    return c.json(trace);
  };
  routes.get('/debug/trace/:event', eventTrace);
  routes.get('/dev/apps/:app/debug/trace/:event', eventTrace);

  const buildGraph = (c: Context) => {
    const name = c.req.param('app')!;
    return c.json({ name, root_agent: describeAgent(ctx.app(name).agent) });
  };
  routes.get('/dev/build_graph/:app', buildGraph);
  routes.get('/dev/apps/:app/build_graph', buildGraph);

  routes.get('/dev/:app/graph', (c) => {
    const app = ctx.app(c.req.param('app'));
    return c.json({
      dotSrc: agentGraphDot(app.agent, { darkMode: c.req.query('dark_mode') === 'true' }),
    });
  });
  routes.get('/dev/apps/:app/build_graph_image', (c) => {
    const app = ctx.app(c.req.param('app'));
    const path = c.req.query('node') ?? '';
    const target = findAgentByPath(app.agent, path);
    if (!target) throw httpError(404, `Node not found: ${path}`);
    const dotSrc = agentGraphDot(target, { darkMode: c.req.query('dark_mode') === 'true' });
    return c.json({ [path]: { dotSrc }, dotSrc });
  });

  const eventGraph = async (c: Context) => {
    const params = {
      app: c.req.param('app')!,
      user: c.req.param('user')!,
      session: c.req.param('session')!,
    };
    const app = ctx.app(params.app);
    const session = await loadSession(ctx, params);
    const event = session.events.find((candidate) => candidate.id === c.req.param('event'));
    if (!event) return c.json({});
    const highlights = [
      ...highlightsOf(event),
      ...workflowPathHighlights(app.agent, session.events, event),
    ];
    return c.json({ dotSrc: agentGraphDot(app.agent, { highlights }) });
  };
  routes.get('/apps/:app/users/:user/sessions/:session/events/:event/graph', eventGraph);
  routes.get('/dev/apps/:app/users/:user/sessions/:session/events/:event/graph', eventGraph);

  return routes;
}
