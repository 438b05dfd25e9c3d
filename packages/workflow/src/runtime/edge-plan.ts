import { DEFAULT_ROUTE, ERROR_ROUTE } from '../graph/constants';
import type { GraphEdge, WorkflowGraph } from '../graph/workflow-graph';

/** @internal The outgoing edges of a node, sorted by when they are taken. */
export interface EdgePlan {
  /** Unrouted edges: taken after every output. */
  always: readonly GraphEdge[];
  /** Routed edges (error-only edges excluded): taken when the node set one of their routes. */
  routed: readonly GraphEdge[];
  /** `DEFAULT_ROUTE` edges: taken when no routed edge matched. */
  onDefault: readonly GraphEdge[];
  /** `ERROR_ROUTE` edges: take the node's failure. */
  onError: readonly GraphEdge[];
  /** No outgoing edge: the node's output may be the workflow's. */
  terminal: boolean;
}

const plans = new WeakMap<WorkflowGraph, Map<string, EdgePlan>>();

/** @internal The edge plan of `node` in `graph`, computed once per graph. */
export function edgePlan(graph: WorkflowGraph, node: string): EdgePlan {
  let byNode = plans.get(graph);
  if (!byNode) {
    byNode = new Map();
    plans.set(graph, byNode);
  }
  let plan = byNode.get(node);
  if (!plan) {
    const edges = graph.outgoing.get(node) ?? [];
    plan = {
      always: edges.filter((edge) => edge.routes === undefined),
      routed: edges.filter(
        (edge) => edge.routes !== undefined && !edge.routes.every((r) => r === ERROR_ROUTE),
      ),
      onDefault: edges.filter((edge) => edge.routes?.includes(DEFAULT_ROUTE) ?? false),
      onError: edges.filter((edge) => edge.routes?.includes(ERROR_ROUTE) ?? false),
      terminal: edges.length === 0,
    };
    byNode.set(node, plan);
  }
  return plan;
}

/**
 * @internal The edges an output with `routes` takes: the unrouted ones, the routed ones whose
 * route was set, and the `DEFAULT_ROUTE` ones when no routed edge matched.
 */
export function takenEdges(plan: EdgePlan, routes: readonly string[]): GraphEdge[] {
  const taken = [...plan.always];
  if (plan.routed.length === 0) return taken;
  const matched = plan.routed.filter((edge) => edge.routes?.some((r) => routes.includes(r)));
  return taken.concat(matched.length > 0 ? matched : plan.onDefault);
}
