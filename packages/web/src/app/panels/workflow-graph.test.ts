import { describe, expect, it } from 'vitest';

import type { AdkEvent, WorkflowGraphDescription } from '../api/types';
import { layoutWorkflowGraph, START, workflowPath } from './workflow-graph';

const graph: WorkflowGraphDescription = {
  nodes: [
    { name: START, kind: 'start' },
    { name: 'classify', kind: 'function' },
    { name: 'refund', kind: 'agent' },
    { name: 'faq', kind: 'function' },
    { name: 'both', kind: 'join' },
  ],
  edges: [
    { from: START, to: 'classify' },
    { from: 'classify', to: 'refund', routes: ['refund'] },
    { from: 'classify', to: 'faq', routes: ['__DEFAULT__'] },
    { from: 'refund', to: 'both' },
    { from: 'faq', to: 'both' },
    { from: 'both', to: 'classify', routes: ['again'] },
  ],
};

let n = 0;
const record = (adk_workflow: Record<string, unknown>): AdkEvent => ({
  id: `e${n++}`,
  invocationId: 'i',
  author: 'support',
  timestamp: n,
  customMetadata: { adk_workflow: { workflow: 'support', ...adk_workflow } },
});

describe('workflow graph layout and path', () => {
  it('layers nodes by distance from START; a loop back is a back edge', () => {
    const { nodes, edges } = layoutWorkflowGraph(graph);
    const y = (name: string) => nodes.find((node) => node.name === name)!.y;
    expect(y('classify')).toBeGreaterThan(y(START));
    expect(y('refund')).toBe(y('faq'));
    expect(y('both')).toBeGreaterThan(y('refund'));
    expect(edges.filter((edge) => edge.back).map((edge) => [edge.from, edge.to])).toEqual([
      ['both', 'classify'],
    ]);
    expect(edges.find((edge) => edge.to === 'refund')?.routes).toEqual(['refund']);
  });

  it("the path is the selected run's nodes and the edges between them; a later run replaces it", () => {
    const first = [
      record({ kind: 'start', run: 'r1' }),
      record({ kind: 'output', run: 'r1', node: 'classify', path: 'classify@0' }),
      record({ kind: 'output', run: 'r1', node: 'refund', path: 'refund@0' }),
      record({ kind: 'end', run: 'r1' }),
    ];
    const second = [
      record({ kind: 'start', run: 'r2' }),
      record({ kind: 'output', run: 'r2', node: 'classify', path: 'classify@0' }),
      record({ kind: 'output', run: 'r2', node: 'faq', path: 'faq@0' }),
    ];
    const events = [...first, ...second];
    const atFirst = workflowPath('support', graph, events, first[2]);
    expect([...atFirst.nodes].sort()).toEqual([START, 'classify', 'refund'].sort());
    expect([...atFirst.edges].sort()).toEqual([`${START}>classify`, 'classify>refund']);
    const latest = workflowPath('support', graph, events, undefined);
    expect([...latest.nodes].sort()).toEqual([START, 'classify', 'faq'].sort());
    expect(workflowPath('other', graph, events, undefined).nodes.size).toBe(0);
  });
});
