import type { BaseAgent } from '@adk/core';
import type { z } from 'zod';

import { WorkflowGraphError, type WorkflowGraphProblem } from '../errors/workflow-graph-error';
import { BaseNode } from '../nodes/base-node';
import { isNodeLike, toNode } from '../nodes/to-node';
import { ERROR_ROUTE, START, START_NAME } from './constants';
import type { Edge, EdgeItem } from './edge';
import { findUnconditionalCycle } from './find-cycle';
import { schemaMismatch } from './schema-compatibility';
import type { GraphEdge, WorkflowGraph } from './workflow-graph';

/** What {@link buildWorkflowGraph} needs. */
export interface GraphDefinition {
  workflowName: string;
  edges: readonly EdgeItem[];
  /** The workflow's input schema, checked against the nodes after `START`. */
  inputSchema?: z.ZodType | undefined;
}

type Ref = string; // a node name, or START

/**
 * Resolve and validate a workflow's edges: nodes are wrapped and named, chains, fan-outs and
 * route maps become edges, and the graph is checked (invalid or duplicate node names, unknown
 * names, no edge from `START`, `START` as a target, unreachable nodes, cycles without a routed
 * edge, schema mismatches along edges).
 *
 * @throws WorkflowGraphError naming the problem and the nodes involved.
 */
export function buildWorkflowGraph(definition: GraphDefinition): WorkflowGraph {
  const { workflowName } = definition;
  const fail = (problem: WorkflowGraphProblem, nodes: readonly string[], message: string) => {
    throw new WorkflowGraphError({ workflowName, problem, nodes, message });
  };
  const nodes = new Map<string, BaseNode>();
  const named = new Set<string>();
  const edges: GraphEdge[] = [];

  const ref = (value: unknown): Ref => {
    // Python ADK writes the entry as the string 'START' too.
    if (value === START || value === START_NAME) return START;
    if (typeof value === 'string') {
      named.add(value);
      return value;
    }
    const node = toNode(value);
    if (!node) {
      return fail('invalid-node', [], `${describe(value)} is not a node, agent, tool or function.`);
    }
    if (!BaseNode.isValidName(node.name)) {
      return fail(
        'invalid-node',
        [String(node.name)],
        `node name ${JSON.stringify(node.name)} is not valid: use letters, digits and underscores (an arrow function needs a name: wrap it in functionNode({ name, run })).`,
      );
    }
    const existing = nodes.get(node.name);
    if (existing && existing !== node) {
      fail('duplicate-node', [node.name], `two different nodes are named "${node.name}".`);
    }
    nodes.set(node.name, node);
    return node.name;
  };
  const refs = (value: unknown): Ref[] =>
    Array.isArray(value) ? value.map((item) => ref(item)) : [ref(value)];
  const addEdge = (from: Ref, to: Ref, routes: readonly string[] | undefined) => {
    if (to === START) fail('start-as-target', [from], `an edge from "${from}" leads to START.`);
    const key = (r: readonly string[] | undefined) => (r ? r.join('\u0000') : '');
    if (edges.some((e) => e.from === from && e.to === to && key(e.routes) === key(routes))) return;
    edges.push({ from, to, routes });
  };

  for (const item of definition.edges) {
    if (isExplicitEdge(item)) {
      const routes =
        item.route === undefined
          ? undefined
          : typeof item.route === 'string'
            ? [item.route]
            : [...item.route];
      addEdge(ref(item.from), ref(item.to), routes);
      continue;
    }
    const [first, ...steps] = item as readonly unknown[];
    let previous = refs(first);
    for (const step of steps) {
      if (isRouteMap(step)) {
        const targets: Ref[] = [];
        for (const [route, target] of Object.entries(step)) {
          for (const to of refs(target)) {
            for (const from of previous) addEdge(from, to, [route]);
            if (!targets.includes(to)) targets.push(to);
          }
        }
        previous = targets;
      } else {
        const targets = refs(step);
        for (const from of previous) for (const to of targets) addEdge(from, to, undefined);
        previous = targets;
      }
    }
  }

  for (const name of named) {
    if (name !== START && !nodes.has(name)) {
      fail('unknown-node', [name], `an edge names "${name}", which is no node of the workflow.`);
    }
  }
  const outgoing = new Map<string, GraphEdge[]>();
  const predecessors = new Map<string, string[]>();
  for (const edge of edges) {
    outgoing.set(edge.from, [...(outgoing.get(edge.from) ?? []), edge]);
    const before = predecessors.get(edge.to) ?? [];
    if (!before.includes(edge.from)) predecessors.set(edge.to, [...before, edge.from]);
  }
  // An empty workflow is valid, as in Python: it runs nothing and outputs nothing.
  if (!outgoing.has(START) && edges.length > 0) fail('no-start', [], 'no edge starts from START.');

  const reached = new Set<string>([START]);
  const queue = [START];
  while (queue.length > 0) {
    for (const edge of outgoing.get(queue.shift() as string) ?? []) {
      if (!reached.has(edge.to)) {
        reached.add(edge.to);
        queue.push(edge.to);
      }
    }
  }
  const unreachable = [...nodes.keys()].filter((name) => !reached.has(name));
  if (unreachable.length > 0) {
    fail(
      'unreachable-node',
      unreachable,
      `no path from START reaches ${unreachable.map((n) => `"${n}"`).join(', ')}.`,
    );
  }

  const cycle = findUnconditionalCycle(edges);
  if (cycle) {
    fail(
      'unconditional-cycle',
      cycle,
      `the cycle ${[...cycle, cycle[0]].join(' → ')} has no routed edge, so it would never end; give one of its edges a route.`,
    );
  }

  for (const edge of edges) {
    const target = nodes.get(edge.to) as BaseNode;
    if (target.waitsForAllPredecessors || !target.inputSchema) continue;
    const produced =
      edge.from === START
        ? definition.inputSchema
        : edge.routes?.includes(ERROR_ROUTE)
          ? undefined
          : nodes.get(edge.from)?.outputSchema;
    if (!produced) continue;
    const mismatch = schemaMismatch(produced, target.inputSchema);
    if (mismatch) {
      fail('schema-mismatch', [edge.from, edge.to], `"${edge.from}" ${mismatch} ("${edge.to}").`);
    }
  }

  const agents: BaseAgent[] = [];
  for (const node of nodes.values()) {
    for (const agent of node.agents) if (!agents.includes(agent)) agents.push(agent);
  }
  return { nodes, edges, outgoing, predecessors, agents };
}

function isExplicitEdge(item: EdgeItem): item is Edge {
  return !Array.isArray(item) && typeof item === 'object' && 'from' in item && 'to' in item;
}

function isRouteMap(step: unknown): step is Record<string, unknown> {
  if (step === null || typeof step !== 'object' || Array.isArray(step) || isNodeLike(step)) {
    return false;
  }
  const prototype = Object.getPrototypeOf(step) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `an object (${Object.keys(value).slice(0, 3).join(', ')})`;
  return JSON.stringify(value) ?? typeof value;
}
