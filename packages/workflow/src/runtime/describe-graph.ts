import { START } from '../graph/constants';
import type { WorkflowGraph } from '../graph/workflow-graph';
import { AgentNode } from '../nodes/agent-node';
import { JoinNode } from '../nodes/join-node';
import { ParallelWorker } from '../nodes/parallel-worker';
import { ToolNode } from '../nodes/tool-node';

/** A workflow graph as plain data (what `Workflow.describeGraph()` returns). */
export interface WorkflowGraphDescription {
  nodes: Array<{
    name: string;
    kind: 'start' | 'function' | 'agent' | 'tool' | 'join' | 'worker' | 'node';
  }>;
  edges: Array<{ from: string; to: string; routes?: string[] }>;
}

/** Describe `graph` for drawing: `START` first, then the nodes, then the edges. */
export function describeWorkflowGraph(graph: WorkflowGraph): WorkflowGraphDescription {
  const kindOf = (node: unknown): WorkflowGraphDescription['nodes'][number]['kind'] =>
    node instanceof AgentNode
      ? 'agent'
      : node instanceof ToolNode
        ? 'tool'
        : node instanceof JoinNode
          ? 'join'
          : node instanceof ParallelWorker
            ? 'worker'
            : node?.constructor?.name === 'FunctionNode'
              ? 'function'
              : 'node';
  return {
    nodes: [
      { name: START, kind: 'start' },
      ...[...graph.nodes.values()].map((node) => ({ name: node.name, kind: kindOf(node) })),
    ],
    edges: graph.edges.map((edge) => ({
      from: edge.from,
      to: edge.to,
      ...(edge.routes ? { routes: [...edge.routes] } : {}),
    })),
  };
}
