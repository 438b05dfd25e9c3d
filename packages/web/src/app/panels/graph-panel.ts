import { api } from '../api/client';
import type { AdkEvent, AgentDescription } from '../api/types';
import { store } from '../store';
import { byId, h } from '../util/dom';
import { describeError } from './errors';
import { layoutAgentTree, NODE_HEIGHT, NODE_WIDTH, type GraphNode } from './graph-layout';
import { nodeLabel, svg } from './svg';
import { drawWorkflowGraph, workflowAgents } from './workflow-graph-svg';

let tree: { app: string; root: AgentDescription } | undefined;

/** The agents and tools an event involves: its author, the tools it calls or answers, its transfer. */
export function involved(event: AdkEvent | undefined): Set<string> {
  const ids = new Set<string>();
  if (!event) return ids;
  ids.add(`agent:${event.author}`);
  for (const part of event.content?.parts ?? []) {
    const name = part.functionCall?.name ?? part.functionResponse?.name;
    if (name && name !== 'transfer_to_agent') ids.add(`tool:${event.author}/${name}`);
  }
  if (event.actions?.transferToAgent) ids.add(`agent:${event.actions.transferToAgent}`);
  return ids;
}

/** The transfers seen in the open session, as `from → to` pairs. */
function transfers(): [string, string][] {
  const seen = new Map<string, [string, string]>();
  for (const event of store.state.session?.events ?? []) {
    const to = event.actions?.transferToAgent;
    if (to) seen.set(`${event.author}>${to}`, [event.author, to]);
  }
  return [...seen.values()];
}

function center(node: GraphNode): { x: number; y: number } {
  return { x: node.x + NODE_WIDTH / 2, y: node.y + NODE_HEIGHT / 2 };
}

function draw(root: AgentDescription): SVGSVGElement {
  const { nodes, edges, width, height } = layoutAgentTree(root);
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const highlighted = involved(store.selectedEvent);
  const pad = 24;
  const picture = svg('svg', {
    class: 'agent-graph',
    viewBox: `${-pad} ${-pad} ${width + 2 * pad} ${height + 2 * pad}`,
    width: width + 2 * pad,
    role: 'img',
    'aria-label': `Agent graph of ${root.name}`,
  });
  const defs = svg('defs', {});
  const marker = svg('marker', {
    id: 'arrow',
    viewBox: '0 0 10 10',
    refX: 9,
    refY: 5,
    markerWidth: 7,
    markerHeight: 7,
    orient: 'auto-start-reverse',
  });
  marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }));
  defs.append(marker);
  picture.append(defs);
  for (const edge of edges) {
    const from = byId.get(edge.from)!;
    const to = byId.get(edge.to)!;
    picture.append(
      svg('line', {
        class: `edge ${edge.kind}`,
        x1: center(from).x,
        y1: from.y + NODE_HEIGHT,
        x2: center(to).x,
        y2: to.y,
      }),
    );
  }
  for (const [fromName, toName] of transfers()) {
    const from = byId.get(`agent:${fromName}`);
    const to = byId.get(`agent:${toName}`);
    if (!from || !to) continue;
    const a = center(from);
    const b = center(to);
    const bend = Math.max(40, Math.abs(b.x - a.x) / 3);
    const path = svg('path', {
      class: 'edge transfer',
      'data-transfer': `${fromName}>${toName}`,
      d: `M${a.x + NODE_WIDTH / 2},${a.y} C${a.x + NODE_WIDTH / 2 + bend},${a.y} ${b.x + NODE_WIDTH / 2 + bend},${b.y} ${b.x + NODE_WIDTH / 2},${b.y}`,
      'marker-end': 'url(#arrow)',
    });
    path.append(svg('title', {}, `transfer ${fromName} → ${toName}`));
    picture.append(path);
  }
  for (const node of nodes) {
    const group = svg('g', {
      class: `node ${node.kind}${highlighted.has(node.id) ? ' highlight' : ''}`,
      'data-node': node.id,
      transform: `translate(${node.x},${node.y})`,
    });
    group.append(
      node.kind === 'agent'
        ? svg('rect', { width: NODE_WIDTH, height: NODE_HEIGHT, rx: 8 })
        : svg('ellipse', {
            cx: NODE_WIDTH / 2,
            cy: NODE_HEIGHT / 2,
            rx: NODE_WIDTH / 2,
            ry: NODE_HEIGHT / 2,
          }),
      nodeLabel(node.name, NODE_WIDTH, NODE_HEIGHT),
      svg('title', {}, `${node.kind} ${node.name}`),
    );
    picture.append(group);
  }
  return picture;
}

/**
 * The graph workflows of the tree, each as its own picture: nodes by kind, routed edges labelled,
 * and the path of the run in progress at the selected event (else the latest run) highlighted.
 */
function drawWorkflows(root: AgentDescription): HTMLElement[] {
  const events = store.state.session?.events ?? [];
  return workflowAgents(root).map((agent) =>
    h(
      'section',
      { class: 'workflow-section' },
      h('h3', {}, `Workflow graph: ${agent.name}`),
      h(
        'p',
        { class: 'legend' },
        h('span', { class: 'legend-wf-node' }, 'node'),
        h('span', { class: 'legend-wf-join' }, 'join'),
        h('span', { class: 'legend-wf-worker' }, 'parallel worker'),
        h('span', { class: 'legend-highlight' }, 'path of the run'),
      ),
      h('div', { class: 'graph-scroll' }, drawWorkflowGraph(agent, events, store.selectedEvent)!),
    ),
  );
}

/**
 * The agent tree of the app as a picture, the selected event's agents and tools highlighted;
 * below it, each graph workflow with the path its run took.
 */
export async function drawGraphPanel(): Promise<void> {
  const panel = byId('panel-graph');
  const app = store.state.app;
  if (!app) return;
  try {
    if (tree?.app !== app) {
      const graph = await api<{ root_agent: AgentDescription }>(
        `/dev/apps/${encodeURIComponent(app)}/build_graph`,
      );
      tree = { app, root: graph.root_agent };
    }
    panel.replaceChildren(
      h('h2', {}, `Agent graph: ${app}`),
      h(
        'p',
        { class: 'legend' },
        h('span', { class: 'legend-agent' }, 'agent'),
        h('span', { class: 'legend-tool' }, 'tool'),
        h('span', { class: 'legend-transfer' }, 'transfer (this session)'),
        h('span', { class: 'legend-highlight' }, 'selected event'),
      ),
      h('div', { class: 'graph-scroll' }, draw(tree.root)),
      ...drawWorkflows(tree.root),
    );
  } catch (error) {
    panel.replaceChildren(
      h('h2', {}, 'Agent graph'),
      h('p', { class: 'error' }, describeError(error)),
    );
  }
}
