import type { Event } from '@adk/core';

import type { AgentNode } from '../app/types';
import type { GraphHighlight } from './graph-highlight';

/** The graph of a workflow agent of `@adk/workflow`, as its `describeGraph()` returns it. */
export interface WorkflowGraphShape {
  nodes: ReadonlyArray<{ name: string; kind: string }>;
  edges: ReadonlyArray<{ from: string; to: string; routes?: readonly string[] }>;
}

/** The START node of a workflow, as named in the drawing (unique per workflow). */
export const workflowStartName = (workflowName: string) => `${workflowName}.START`;

/** The graph of `agent` when it is a graph workflow (it has `describeGraph()`), read by shape. */
export function workflowGraphOf(agent: AgentNode): WorkflowGraphShape | undefined {
  const describe = (agent as { describeGraph?: unknown }).describeGraph;
  if (typeof describe !== 'function') return undefined;
  const graph = describe.call(agent) as WorkflowGraphShape | undefined;
  return graph && Array.isArray(graph.nodes) && Array.isArray(graph.edges) ? graph : undefined;
}

interface RunRecord {
  kind?: unknown;
  workflow?: unknown;
  run?: unknown;
  node?: unknown;
}

const recordOf = (event: Event): RunRecord | undefined => {
  const record = event.customMetadata?.adk_workflow;
  return record !== null && typeof record === 'object' ? (record as RunRecord) : undefined;
};

/**
 * The path the workflow runs took up to `event` (the runs in progress then, across the pauses of
 * each): every edge of a workflow graph whose two ends had run, `START` edges included. Read from
 * the node records the workflows store in their events (`customMetadata.adk_workflow`).
 */
export function workflowPathHighlights(
  root: AgentNode,
  events: readonly Event[],
  event: Event,
): GraphHighlight[] {
  const upTo = events.indexOf(event);
  if (upTo < 0) return [];
  // The runs in progress at `event`: started at or before it, not ended before it.
  const runs = new Map<string, Set<string>>(); // `${workflow}\u0000${run}` -> nodes that ran
  for (let index = 0; index <= upTo; index++) {
    const record = recordOf(events[index] as Event);
    if (!record || typeof record.workflow !== 'string' || typeof record.run !== 'string') continue;
    const key = `${record.workflow}\u0000${record.run}`;
    if (record.kind === 'start') runs.set(key, new Set());
    else if (record.kind === 'output' && typeof record.node === 'string')
      runs.get(key)?.add(record.node);
    else if (record.kind === 'end' && index < upTo) runs.delete(key);
  }
  const highlights: GraphHighlight[] = [];
  const visit = (agent: AgentNode) => {
    const graph = workflowGraphOf(agent);
    if (graph) {
      const ran = new Set<string>();
      for (const [key, nodes] of runs)
        if (key.startsWith(`${agent.name}\u0000`)) for (const n of nodes) ran.add(n);
      for (const edge of graph.edges) {
        const fromRan = edge.from === '__START__' ? ran.size > 0 : ran.has(edge.from);
        if (fromRan && ran.has(edge.to)) {
          highlights.push([
            edge.from === '__START__' ? workflowStartName(agent.name) : edge.from,
            edge.to,
          ]);
        }
      }
    }
    for (const child of agent.subAgents) visit(child);
  };
  visit(root);
  return highlights;
}
