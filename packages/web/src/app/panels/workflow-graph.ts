import type { AdkEvent, WorkflowGraphDescription } from '../api/types';

/** Name of a workflow's start node in its description. */
export const START = '__START__';

/** One drawn node of a workflow graph. */
export interface WorkflowNodeBox {
  name: string;
  kind: string;
  x: number;
  y: number;
}

/** One drawn edge; `back` when it goes up (a loop through a routed edge). */
export interface WorkflowEdgeLine {
  from: string;
  to: string;
  routes: string[];
  back: boolean;
}

export const WF_NODE_WIDTH = 128;
export const WF_NODE_HEIGHT = 34;
const GAP_X = 28;
const GAP_Y = 54;

/**
 * Lay a workflow graph out top-down in layers: a node's layer is its distance from `START`
 * (breadth first), nodes of a layer side by side in the order they were reached, each layer
 * centred. An edge to an earlier or the same layer is a back edge (a loop).
 */
export function layoutWorkflowGraph(graph: WorkflowGraphDescription): {
  nodes: WorkflowNodeBox[];
  edges: WorkflowEdgeLine[];
  width: number;
  height: number;
} {
  const kinds = new Map(graph.nodes.map((node) => [node.name, node.kind]));
  const layer = new Map<string, number>([[START, 0]]);
  const layers: string[][] = [[START]];
  const queue = [START];
  while (queue.length > 0) {
    const name = queue.shift()!;
    for (const edge of graph.edges) {
      if (edge.from !== name || layer.has(edge.to)) continue;
      const depth = layer.get(name)! + 1;
      layer.set(edge.to, depth);
      (layers[depth] ??= []).push(edge.to);
      queue.push(edge.to);
    }
  }
  // Nodes START does not reach (none in a valid graph) go last.
  for (const node of graph.nodes)
    if (!layer.has(node.name)) {
      layer.set(node.name, layers.length);
      layers.push([node.name]);
    }
  const widest = Math.max(...layers.map((row) => row.length));
  const width = widest * (WF_NODE_WIDTH + GAP_X) - GAP_X;
  const nodes: WorkflowNodeBox[] = [];
  layers.forEach((row, depth) => {
    const rowWidth = row.length * (WF_NODE_WIDTH + GAP_X) - GAP_X;
    row.forEach((name, index) =>
      nodes.push({
        name,
        kind: kinds.get(name) ?? 'node',
        x: (width - rowWidth) / 2 + index * (WF_NODE_WIDTH + GAP_X),
        y: depth * (WF_NODE_HEIGHT + GAP_Y),
      }),
    );
  });
  const edges = graph.edges.map((edge) => ({
    from: edge.from,
    to: edge.to,
    routes: edge.routes ?? [],
    back: (layer.get(edge.to) ?? 0) <= (layer.get(edge.from) ?? 0),
  }));
  return { nodes, edges, width, height: layers.length * (WF_NODE_HEIGHT + GAP_Y) - GAP_Y };
}

interface RunRecord {
  kind?: unknown;
  workflow?: unknown;
  run?: unknown;
  node?: unknown;
}

const recordOf = (event: AdkEvent): RunRecord | undefined => {
  const record = event.customMetadata?.adk_workflow;
  return record !== null && typeof record === 'object' ? (record as RunRecord) : undefined;
};

/**
 * The path the runs of workflow `workflow` took up to `event` (the runs in progress then, across
 * their pauses; the latest run when `event` is after its end): the nodes that ran (`START`
 * included once one did) and the edges whose two ends ran. Read from the records the workflow
 * stores in its events (`customMetadata.adk_workflow`).
 */
export function workflowPath(
  workflow: string,
  graph: WorkflowGraphDescription,
  events: readonly AdkEvent[],
  event: AdkEvent | undefined,
): { nodes: Set<string>; edges: Set<string> } {
  const upTo = event ? events.indexOf(event) : events.length - 1;
  const ran = new Set<string>();
  let current: string | undefined;
  for (let index = 0; index <= upTo; index++) {
    const record = recordOf(events[index]!);
    if (!record || record.workflow !== workflow || typeof record.run !== 'string') continue;
    if (record.kind === 'start') {
      // A new run: the path shown is this one's.
      ran.clear();
      current = record.run;
    }
    if (record.run !== current) continue;
    if (record.kind === 'output' && typeof record.node === 'string') ran.add(record.node);
    if (record.kind === 'interrupt' && typeof record.node === 'string') ran.add(record.node);
  }
  if (ran.size > 0) ran.add(START);
  const edges = new Set<string>();
  for (const edge of graph.edges)
    if (ran.has(edge.from) && ran.has(edge.to)) edges.add(edgeKey(edge.from, edge.to));
  return { nodes: ran, edges };
}

/** The key of an edge in {@link workflowPath}'s `edges` and in the drawing's `data-edge`. */
export const edgeKey = (from: string, to: string) => `${from}>${to}`;
