import type { AgentNode } from '../app/types';
import type { GraphHighlight } from './graph-highlight';
import { workflowGraphOf, workflowStartName } from './workflow-graph';

export type { GraphHighlight };

/** Options of {@link agentGraphDot}. */
export interface AgentGraphOptions {
  /** Edges (and their nodes) to highlight; `to` may be '' to highlight a node alone. */
  highlights?: readonly GraphHighlight[];
  darkMode?: boolean;
}

const quote = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

function toolName(tool: unknown): string | undefined {
  if (tool && typeof tool === 'object' && 'name' in tool && typeof tool.name === 'string')
    return tool.name;
  if (typeof tool === 'function' && tool.name) return tool.name;
  return undefined;
}

/**
 * The agent tree as a Graphviz DOT graph: agents are ellipses, tools are boxes, an edge joins
 * each agent to its sub-agents and tools. Highlighted pairs are drawn in the accent colour, with
 * the arrow pointing from `from` to `to`.
 *
 * @example
 * ```ts
 * const dot = agentGraphDot(rootAgent, { highlights: [['router', 'weather']] });
 * ```
 */
export function agentGraphDot(root: AgentNode, options: AgentGraphOptions = {}): string {
  const dark = options.darkMode ?? false;
  const highlights = options.highlights ?? [];
  const highlightedNodes = new Set(highlights.flatMap(([from, to]) => [from, to]).filter(Boolean));
  const palette = dark
    ? {
        background: '#202124',
        text: '#e8eaed',
        line: '#9aa0a6',
        accent: '#8ab4f8',
        fill: '#303134',
      }
    : {
        background: '#ffffff',
        text: '#202124',
        line: '#5f6368',
        accent: '#1a73e8',
        fill: '#f1f3f4',
      };

  const lines = [
    'digraph adk {',
    `  rankdir=LR; bgcolor=${quote(palette.background)};`,
    `  node [fontname="Helvetica" fontcolor=${quote(palette.text)} color=${quote(palette.line)} style="filled,rounded" fillcolor=${quote(palette.fill)}];`,
    `  edge [color=${quote(palette.line)} arrowhead=none];`,
  ];
  const seen = new Set<string>();
  const node = (name: string, shape: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const on = highlightedNodes.has(name);
    const style = on
      ? ` fillcolor=${quote(palette.accent)} fontcolor=${quote(palette.background)}`
      : '';
    lines.push(`  ${quote(name)} [shape=${shape}${style}];`);
  };
  const edge = (from: string, to: string) => {
    const forward = highlights.some(([a, b]) => a === from && b === to);
    const backward = highlights.some(([a, b]) => a === to && b === from);
    if (forward || backward) {
      const [tail, head] = forward ? [from, to] : [to, from];
      lines.push(
        `  ${quote(tail)} -> ${quote(head)} [color=${quote(palette.accent)} arrowhead=normal penwidth=2];`,
      );
    } else {
      lines.push(`  ${quote(from)} -> ${quote(to)};`);
    }
  };

  // A graph workflow: its nodes and directed edges (labelled with their routes), from its START.
  const drawWorkflow = (agent: AgentNode): boolean => {
    const graph = workflowGraphOf(agent);
    if (!graph) return false;
    const shapes: Record<string, string> = { join: 'diamond', worker: 'box3d', tool: 'box' };
    const nameOf = (name: string) => (name === '__START__' ? workflowStartName(agent.name) : name);
    node(workflowStartName(agent.name), 'circle');
    edge(agent.name, workflowStartName(agent.name));
    for (const item of graph.nodes) {
      if (item.kind === 'start') continue;
      const child = agent.subAgents.find((sub) => sub.name === item.name);
      if (child) visit(child);
      else node(item.name, shapes[item.kind] ?? 'box');
    }
    for (const item of graph.edges) {
      const [from, to] = [nameOf(item.from), item.to];
      const on = highlights.some(([a, b]) => a === from && b === to);
      const label = item.routes ? ` label=${quote(item.routes.join(', '))}` : '';
      const color = on ? ` color=${quote(palette.accent)} penwidth=2` : '';
      lines.push(`  ${quote(from)} -> ${quote(to)} [arrowhead=normal${label}${color}];`);
    }
    return true;
  };

  const visit = (agent: AgentNode) => {
    node(agent.name, 'ellipse');
    if (drawWorkflow(agent)) return;
    for (const tool of agent.tools ?? []) {
      const name = toolName(tool);
      if (!name) continue;
      node(name, 'box');
      edge(agent.name, name);
    }
    for (const child of agent.subAgents) {
      visit(child);
      edge(agent.name, child.name);
    }
  };
  visit(root);
  lines.push('}');
  return lines.join('\n');
}
