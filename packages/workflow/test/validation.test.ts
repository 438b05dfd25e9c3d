import { FunctionTool, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  functionNode,
  START,
  Workflow,
  WorkflowGraphError,
  type EdgeItem,
  type WorkflowGraphProblem,
} from '../src';

function graphError(edges: readonly EdgeItem[], options: { inputSchema?: z.ZodType } = {}) {
  try {
    new Workflow({ name: 'wf', edges, ...options });
  } catch (error) {
    if (WorkflowGraphError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('the workflow was built');
}

const a = (x: unknown) => x;
const b = (x: unknown) => x;
const c = (x: unknown) => x;

describe('graph validation at construction', () => {
  const cases: Array<[string, readonly EdgeItem[], WorkflowGraphProblem, string[], RegExp]> = [
    ['an unknown node name', [[START, a, 'missing']], 'unknown-node', ['missing'], /"missing"/],
    [
      'two different nodes with one name',
      [
        [START, a],
        [a, functionNode({ name: 'a', run: () => 1 })],
      ],
      'duplicate-node',
      ['a'],
      /two different nodes are named "a"/,
    ],
    [
      'an unreachable node',
      [
        [START, a],
        [b, c],
      ],
      'unreachable-node',
      ['b', 'c'],
      /"b", "c"/,
    ],
    ['no edge from START', [[a, b]], 'no-start', [], /START/],
    [
      'an edge into START',
      [
        [START, a],
        [a, START],
      ],
      'start-as-target',
      ['a'],
      /leads to START/,
    ],
    [
      'an unconditional cycle',
      [
        [START, a, b, c],
        [c, a],
      ],
      'unconditional-cycle',
      ['a', 'b', 'c'],
      /a → b → c → a/,
    ],
    [
      'a self loop without route',
      [
        [START, a],
        [a, a],
      ],
      'unconditional-cycle',
      ['a'],
      /a → a/,
    ],
    [
      'an anonymous function',
      [[START, (x: unknown) => x]],
      'invalid-node',
      [''],
      /arrow function needs a name/,
    ],
    ['a value that is no node', [[START, 42 as never]], 'invalid-node', [], /not a node/],
  ];
  for (const [label, edges, problem, nodes, message] of cases) {
    it(`refuses ${label}`, () => {
      const error = graphError(edges);
      expect(error.code).toBe('INVALID_WORKFLOW_GRAPH');
      expect(error.problem).toBe(problem);
      expect(error.nodes).toEqual(nodes);
      expect(error.message).toMatch(message);
    });
  }

  it('accepts a cycle that has a routed edge', () => {
    expect(
      () =>
        new Workflow({
          name: 'wf',
          edges: [
            [START, a, b],
            [b, { again: a }],
          ],
        }),
    ).not.toThrow();
  });

  it('refuses an edge whose output type does not match the next input type', () => {
    const count = functionNode({ name: 'count', outputSchema: z.number(), run: () => 1 });
    const upper = functionNode({
      name: 'upper',
      inputSchema: z.string(),
      run: (s) => s.toUpperCase(),
    });
    const error = graphError([[START, count, upper]]);
    expect(error.problem).toBe('schema-mismatch');
    expect(error.nodes).toEqual(['count', 'upper']);
    expect(error.message).toMatch(/outputs number but the next node expects string/);
  });

  it('refuses an object output missing a property the next node requires', () => {
    const produce = functionNode({
      name: 'produce',
      outputSchema: z.object({ city: z.string() }),
      run: () => ({ city: 'Paris' }),
    });
    const consume = functionNode({
      name: 'consume',
      inputSchema: z.object({ city: z.string(), days: z.number() }),
      run: (trip) => trip.days,
    });
    expect(graphError([[START, produce, consume]]).message).toMatch(/"days"/);
  });

  it("refuses the workflow's input schema when the first node expects another type", () => {
    const upper = functionNode({ name: 'upper', inputSchema: z.string(), run: (s) => s });
    const error = graphError([[START, upper]], { inputSchema: z.object({ n: z.number() }) });
    expect(error.problem).toBe('schema-mismatch');
    expect(error.nodes).toEqual([START, 'upper']);
  });

  it('an agent node joins the agent tree; two agents with one name are refused by the tree', () => {
    const agent = new LlmAgent({ name: 'helper', model: new FakeModel({ responses: [] }) });
    const tool = new FunctionTool({
      name: 'lookup',
      description: 'look up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => q,
    });
    const workflow = new Workflow({ name: 'wf', edges: [[START, agent, tool]] });
    expect(workflow.subAgents).toEqual([agent]);
    expect(agent.parentAgent).toBe(workflow);
    expect(workflow.describeGraph()).toEqual({
      nodes: [
        { name: START, kind: 'start' },
        { name: 'helper', kind: 'agent' },
        { name: 'lookup', kind: 'tool' },
      ],
      edges: [
        { from: START, to: 'helper' },
        { from: 'helper', to: 'lookup' },
      ],
    });
  });
});
