import type { AdkEvent, AgentDescription } from '../api/types';
import {
  edgeKey,
  layoutWorkflowGraph,
  START,
  WF_NODE_HEIGHT,
  WF_NODE_WIDTH,
  workflowPath,
  type WorkflowNodeBox,
} from './workflow-graph';
import { nodeLabel, routeLabel, svg } from './svg';

/** The shape of a node by kind: start a circle, join a diamond, worker a stacked box. */
function shape(node: WorkflowNodeBox): SVGElement[] {
  const w = WF_NODE_WIDTH;
  const h = WF_NODE_HEIGHT;
  switch (node.kind) {
    case 'start':
      return [svg('circle', { cx: w / 2, cy: h / 2, r: h / 2 })];
    case 'join':
      return [svg('polygon', { points: `${w / 2},0 ${w},${h / 2} ${w / 2},${h} 0,${h / 2}` })];
    case 'worker':
      return [
        svg('rect', { x: 5, y: -5, width: w, height: h, rx: 6, class: 'stack' }),
        svg('rect', { width: w, height: h, rx: 6 }),
      ];
    default:
      return [svg('rect', { width: w, height: h, rx: node.kind === 'agent' ? 10 : 4 })];
  }
}

/**
 * A graph workflow as a picture: its nodes (`data-wf-node`, class = kind), its edges
 * (`data-edge="from>to"`) with their routes written on them, and the path of the run that was in
 * progress at `selected` (the latest run without a selection) marked `on-path`.
 */
export function drawWorkflowGraph(
  agent: AgentDescription,
  events: readonly AdkEvent[],
  selected: AdkEvent | undefined,
): SVGSVGElement | undefined {
  const graph = agent.graph;
  if (!graph) return undefined;
  const { nodes, edges, width, height } = layoutWorkflowGraph(graph);
  const path = workflowPath(agent.name, graph, events, selected);
  const at = new Map(nodes.map((node) => [node.name, node]));
  const pad = 40;
  const picture = svg('svg', {
    class: 'workflow-graph',
    'data-workflow': agent.name,
    viewBox: `${-pad} ${-pad} ${width + 3 * pad} ${height + 2 * pad}`,
    width: width + 3 * pad,
    role: 'img',
    'aria-label': `Workflow graph of ${agent.name}`,
  });
  const marker = svg('marker', {
    id: `wf-arrow-${agent.name}`,
    viewBox: '0 0 10 10',
    refX: 9,
    refY: 5,
    markerWidth: 7,
    markerHeight: 7,
    orient: 'auto-start-reverse',
  });
  marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'wf-arrow-head' }));
  const defs = svg('defs', {});
  defs.append(marker);
  picture.append(defs);
  for (const edge of edges) {
    const from = at.get(edge.from);
    const to = at.get(edge.to);
    if (!from || !to) continue;
    const key = edgeKey(edge.from, edge.to);
    const group = svg('g', {
      class: `wf-edge${edge.routes.length > 0 ? ' routed' : ''}${path.edges.has(key) ? ' on-path' : ''}`,
      'data-edge': key,
    });
    let d: string;
    let label: { x: number; y: number };
    if (edge.back) {
      // Up the right side of both nodes: a loop.
      const x1 = from.x + WF_NODE_WIDTH;
      const y1 = from.y + WF_NODE_HEIGHT / 2;
      const x2 = to.x + WF_NODE_WIDTH;
      const y2 = to.y + WF_NODE_HEIGHT / 2;
      const out = Math.max(x1, x2) + 36;
      d = `M${x1},${y1} C${out},${y1} ${out},${y2} ${x2},${y2}`;
      label = { x: out - 6, y: (y1 + y2) / 2 };
    } else {
      const x1 = from.x + WF_NODE_WIDTH / 2;
      const y1 = from.y + WF_NODE_HEIGHT;
      const x2 = to.x + WF_NODE_WIDTH / 2;
      const y2 = to.y;
      d = `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`;
      label = { x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2 };
    }
    group.append(svg('path', { d, 'marker-end': `url(#wf-arrow-${agent.name})` }));
    if (edge.routes.length > 0)
      group.append(
        svg(
          'text',
          { x: label.x, y: label.y, class: 'route' },
          edge.routes.map(routeLabel).join(', '),
        ),
      );
    group.append(
      svg(
        'title',
        {},
        `${edge.from} → ${edge.to}${edge.routes.length ? ` (route ${edge.routes.map(routeLabel).join(', ')})` : ''}`,
      ),
    );
    picture.append(group);
  }
  for (const node of nodes) {
    const group = svg('g', {
      class: `wf-node ${node.kind}${path.nodes.has(node.name) ? ' on-path' : ''}`,
      'data-wf-node': node.name,
      transform: `translate(${node.x},${node.y})`,
    });
    const name = node.name === START ? 'START' : node.name;
    group.append(
      ...shape(node),
      nodeLabel(name, WF_NODE_WIDTH, WF_NODE_HEIGHT),
      svg('title', {}, `${node.kind} ${name}`),
    );
    picture.append(group);
  }
  return picture;
}

/** Every agent of the tree that is a graph workflow, depth first. */
export function workflowAgents(root: AgentDescription): AgentDescription[] {
  const found: AgentDescription[] = [];
  const visit = (agent: AgentDescription) => {
    if (agent.graph) found.push(agent);
    for (const child of agent.sub_agents ?? []) visit(child);
  };
  visit(root);
  return found;
}
