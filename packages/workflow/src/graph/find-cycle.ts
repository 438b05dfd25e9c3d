import type { GraphEdge } from './workflow-graph';

/**
 * A cycle made only of unconditional edges, as the list of its nodes in order, or `undefined`.
 * Such a cycle can never be left: every pass takes every edge again.
 */
export function findUnconditionalCycle(edges: readonly GraphEdge[]): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.routes !== undefined) continue;
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  }
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    state.set(node, 'open');
    stack.push(node);
    for (const to of next.get(node) ?? []) {
      const seen = state.get(to);
      if (seen === 'open') return stack.slice(stack.indexOf(to));
      if (seen === undefined) {
        const cycle = visit(to);
        if (cycle) return cycle;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of next.keys()) {
    if (state.has(node)) continue;
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return undefined;
}
