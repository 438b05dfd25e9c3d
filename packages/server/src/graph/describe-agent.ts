import type { AgentNode } from '../app/types';
import { workflowGraphOf, type WorkflowGraphShape } from './workflow-graph';

/** The JSON description of an agent tree served by the build-graph routes. */
export interface AgentDescription {
  name: string;
  type: 'agent';
  description?: string;
  /** Class of the agent, e.g. `LlmAgent`. */
  agent_class: string;
  model?: string;
  tools?: Array<{ name: string; type: 'tool' }>;
  sub_agents?: AgentDescription[];
  /** The nodes and edges of a graph workflow (`@adk/workflow`). */
  graph?: WorkflowGraphShape;
}

function modelName(model: unknown): string | undefined {
  if (typeof model === 'string') return model;
  if (model && typeof model === 'object' && 'name' in model && typeof model.name === 'string')
    return model.name;
  return undefined;
}

/** Describe an agent tree as JSON (snake_case, as the official servers' build-graph routes). */
export function describeAgent(agent: AgentNode): AgentDescription {
  const model = modelName(agent.model);
  const tools = (agent.tools ?? []).flatMap((tool) =>
    tool && typeof tool === 'object' && 'name' in tool
      ? [{ name: String(tool.name), type: 'tool' as const }]
      : [],
  );
  return {
    name: agent.name,
    type: 'agent',
    ...(agent.description ? { description: agent.description } : {}),
    agent_class: agent.constructor.name,
    ...(model ? { model } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(agent.subAgents.length > 0 ? { sub_agents: agent.subAgents.map(describeAgent) } : {}),
    ...graphOf(agent),
  };
}

/** The agent at `path` (`weather` or `router/weather`, names separated by `/`), if any. */
export function findAgentByPath(root: AgentNode, path: string): AgentNode | undefined {
  const names = path.split('/').filter(Boolean);
  let current: AgentNode | undefined = root;
  for (const [index, name] of names.entries()) {
    if (index === 0 && name === root.name) continue;
    current = current?.subAgents.find((child) => child.name === name);
  }
  return current;
}

function graphOf(agent: AgentNode): { graph?: WorkflowGraphShape } {
  const graph = workflowGraphOf(agent);
  return graph ? { graph } : {};
}
