import { getFunctionCalls, getFunctionResponses } from '@adk/core';
import { Hono } from 'hono';

import type { ServerContext } from '../app/server-context';
import type { AgentNode } from '../app/types';
import { agentGraphDot, type GraphHighlight } from '../graph';
import { httpError } from '../http/http-error';
import { loadSession } from './session-routes';

function describeAgent(agent: AgentNode): Record<string, unknown> {
  const model = agent.model;
  const modelName =
    typeof model === 'string'
      ? model
      : model && typeof model === 'object' && 'name' in model && typeof model.name === 'string'
        ? model.name
        : undefined;
  return {
    name: agent.name,
    description: agent.description ?? '',
    agent_class: agent.constructor.name,
    ...(modelName ? { model: modelName } : {}),
    tools: (agent.tools ?? []).flatMap((tool) =>
      tool && typeof tool === 'object' && 'name' in tool ? [{ name: String(tool.name) }] : [],
    ),
    sub_agents: agent.subAgents.map(describeAgent),
  };
}

/**
 * Debug routes the ADK web UI shows: traces per event and per session, the agent graph (plain
 * or with one event's agents and tools highlighted), and the app's agent tree.
 */
export function debugRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();

  routes.get('/debug/trace/session/:session', (c) =>
    c.json(ctx.traces.sessionTrace(c.req.param('session'))),
  );

  routes.get('/debug/trace/:event', (c) => {
    const trace = ctx.traces.eventTrace(c.req.param('event'));
    if (!trace) throw httpError(404, 'Trace not found');
    return c.json(trace);
  });

  routes.get('/dev/build_graph/:app', (c) => {
    const name = c.req.param('app');
    return c.json({ name, root_agent: describeAgent(ctx.app(name).agent) });
  });

  routes.get('/dev/:app/graph', (c) => {
    const app = ctx.app(c.req.param('app'));
    const darkMode = c.req.query('dark_mode') === 'true';
    return c.json({ dotSrc: agentGraphDot(app.agent, { darkMode }) });
  });

  routes.get('/apps/:app/users/:user/sessions/:session/events/:event/graph', async (c) => {
    const app = ctx.app(c.req.param('app'));
    const session = await loadSession(ctx, c.req.param());
    const event = session.events.find((candidate) => candidate.id === c.req.param('event'));
    if (!event) return c.json({});
    const calls = getFunctionCalls(event.content);
    const responses = getFunctionResponses(event.content);
    let highlights: GraphHighlight[];
    if (calls.length > 0) highlights = calls.map((call) => [event.author, call.name] as const);
    else if (responses.length > 0)
      highlights = responses.map((response) => [response.name, event.author] as const);
    else highlights = [[event.author, '']];
    if (event.actions.transferToAgent)
      highlights.push([event.author, event.actions.transferToAgent]);
    return c.json({ dotSrc: agentGraphDot(app.agent, { highlights }) });
  });

  return routes;
}
