import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { functionNode, START, Workflow, WorkflowGraphError, type NodeContext } from '../src';
import { outputs, runnerFor, turn, workflowOutput } from './helpers';

const CartState = z.object({ items: z.number(), coupon: z.string() });

describe("a workflow's stateSchema (Python's state_schema)", () => {
  it('a node writing a declared key with a valid value goes on; a later node reads it', async () => {
    function add(_: unknown, ctx: NodeContext) {
      ctx.state.set('items', 3);
    }
    const total = functionNode({
      name: 'total',
      stateKeys: ['items'],
      run: (_: unknown, _ctx, state) => `${String(state.items)} items`,
    });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', stateSchema: CartState, edges: [[START, add, total]] })),
      'go',
    );
    expect(workflowOutput(events)).toBe('3 items');
  });

  it('a node writing a key the schema does not declare fails; the state is not stored', async () => {
    function add(_: unknown, ctx: NodeContext) {
      ctx.state.set('itemz', 3);
      return 'added';
    }
    const runner = runnerFor(
      new Workflow({ name: 'wf', stateSchema: CartState, edges: [[START, add]] }),
    );
    const events = await turn(runner, 'go');
    const failure = outputs(events)[0]?.error;
    expect(failure?.name).toBe('NodeDataError');
    expect(failure?.message).toMatch(/"itemz"/);
    const session = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    expect(session?.state.itemz).toBeUndefined();
    expect(events.at(-1)?.errorCode).toBe('WORKFLOW_NODE_FAILED');
  });

  it('a value the field refuses fails the node', async () => {
    function add(_: unknown, ctx: NodeContext) {
      ctx.state.set('items', 'three');
      return 'added';
    }
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', stateSchema: CartState, edges: [[START, add]] })),
      'go',
    );
    expect(outputs(events)[0]?.error?.message).toMatch(/"items"/);
    expect(events.at(-1)?.errorCode).toBe('WORKFLOW_NODE_FAILED');
  });

  it('a function node reading an undeclared state key is refused at construction', () => {
    const reader = functionNode({
      name: 'reader',
      stateKeys: ['discount'],
      run: (_: unknown, _ctx, state) => state.discount,
    });
    let caught: unknown;
    try {
      new Workflow({ name: 'wf', stateSchema: CartState, edges: [[START, reader]] });
    } catch (error) {
      caught = error;
    }
    expect(WorkflowGraphError.isInstance(caught)).toBe(true);
    expect((caught as WorkflowGraphError).problem).toBe('undeclared-state-key');
    expect((caught as WorkflowGraphError).message).toMatch(/reader\.discount/);
  });
});
