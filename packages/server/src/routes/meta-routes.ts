import { Hono } from 'hono';

import type { ServerContext } from '../app/server-context';
import type { AgentNode } from '../app/types';
import { version as packageVersion } from '../version';

/** Detailed description of one app (`/list-apps?detailed=true`, `/apps/{app}/app-info`). */
export interface AppInfo {
  name: string;
  rootAgentName: string;
  description: string;
  language: 'typescript';
  agents: Record<string, { name: string; description: string; subAgents: string[] }>;
}

function appInfo(name: string, root: AgentNode): AppInfo {
  const agents: AppInfo['agents'] = {};
  const visit = (agent: AgentNode) => {
    agents[agent.name] = {
      name: agent.name,
      description: agent.description ?? '',
      subAgents: agent.subAgents.map((child) => child.name),
    };
    agent.subAgents.forEach(visit);
  };
  visit(root);
  return {
    name,
    rootAgentName: root.name,
    description: root.description ?? '',
    language: 'typescript',
    agents,
  };
}

/** `/health`, `/version`, `/list-apps`, `/apps/{app}/app-info`. */
export function metaRoutes(ctx: ServerContext): Hono {
  const routes = new Hono();
  routes.get('/health', (c) => c.json({ status: 'ok' }));
  // For load balancers and orchestrators: alive while the process serves; ready until a
  // graceful shutdown starts (then new runs are refused with 503 and should go elsewhere).
  routes.get('/health/live', (c) => c.json({ status: 'ok' }));
  routes.get('/health/ready', (c) =>
    ctx.runs.draining
      ? c.json({ status: 'draining', runsInFlight: ctx.runs.size }, 503)
      : c.json({ status: 'ready', runsInFlight: ctx.runs.size }),
  );
  routes.get('/version', (c) =>
    c.json({
      version: ctx.options.version ?? packageVersion,
      language: 'typescript',
      language_version: process.versions.node,
    }),
  );
  routes.get('/list-apps', (c) => {
    const detailed = c.req.query('detailed');
    if (detailed === 'true' || detailed === '1') {
      return c.json({ apps: ctx.appNames().map((name) => appInfo(name, ctx.app(name).agent)) });
    }
    return c.json(ctx.appNames());
  });
  routes.get('/apps/:app/app-info', (c) => {
    const name = c.req.param('app');
    return c.json(appInfo(name, ctx.app(name).agent));
  });
  return routes;
}
