import type { AgentDescription } from '../api/types';

/** One drawn node: an agent or a tool of an agent. */
export interface GraphNode {
  id: string;
  kind: 'agent' | 'tool';
  name: string;
  /** The agent a tool belongs to. */
  owner?: string;
  x: number;
  y: number;
}

/** Parent → child (sub-agent or tool). */
export interface GraphEdge {
  from: string;
  to: string;
  kind: 'sub-agent' | 'tool';
}

export const NODE_WIDTH = 132;
export const NODE_HEIGHT = 32;
const GAP_X = 14;
const GAP_Y = 56;

/**
 * Lay an agent tree out top-down: each leaf (a tool, or an agent without children) takes one
 * column, each parent is centred over its children. Agent ids are `agent:<name>`, tool ids
 * `tool:<agent>/<tool>`.
 */
export function layoutAgentTree(root: AgentDescription): {
  nodes: GraphNode[];
  edges: GraphEdge[];
  width: number;
  height: number;
} {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  let column = 0;
  let depthMax = 0;
  const place = (agent: AgentDescription, depth: number): number => {
    depthMax = Math.max(depthMax, depth);
    const id = `agent:${agent.name}`;
    const xs: number[] = [];
    for (const tool of agent.tools ?? []) {
      const toolId = `tool:${agent.name}/${tool.name}`;
      const x = column++ * (NODE_WIDTH + GAP_X);
      nodes.push({
        id: toolId,
        kind: 'tool',
        name: tool.name,
        owner: agent.name,
        x,
        y: (depth + 1) * (NODE_HEIGHT + GAP_Y),
      });
      edges.push({ from: id, to: toolId, kind: 'tool' });
      depthMax = Math.max(depthMax, depth + 1);
      xs.push(x);
    }
    for (const child of agent.sub_agents ?? []) {
      xs.push(place(child, depth + 1));
      edges.push({ from: id, to: `agent:${child.name}`, kind: 'sub-agent' });
    }
    const x =
      xs.length > 0 ? (Math.min(...xs) + Math.max(...xs)) / 2 : column++ * (NODE_WIDTH + GAP_X);
    nodes.push({ id, kind: 'agent', name: agent.name, x, y: depth * (NODE_HEIGHT + GAP_Y) });
    return x;
  };
  place(root, 0);
  const width = Math.max(...nodes.map((node) => node.x)) + NODE_WIDTH;
  return { nodes, edges, width, height: (depthMax + 1) * (NODE_HEIGHT + GAP_Y) - GAP_Y };
}
