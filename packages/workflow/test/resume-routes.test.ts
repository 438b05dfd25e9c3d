import { describe, expect, it } from 'vitest';

import { REQUEST_INPUT_FUNCTION_NAME, START, Workflow, type NodeContext } from '../src';
import { answer, outputs, runnerFor, turn, workflowOutput } from './helpers';

describe('resume keeps routes', () => {
  it('a node that set a route and paused goes down that route with the answer', async () => {
    function review(draft: string, ctx: NodeContext) {
      ctx.route = draft.includes('urgent') ? 'fast' : 'slow';
      ctx.requestInput({ id: 'review', message: `Approve "${draft}"?` });
    }
    const fast = (reply: { ok: boolean }) => `fast lane: ${reply.ok}`;
    const slow = (reply: { ok: boolean }) => `slow lane: ${reply.ok}`;
    const runner = runnerFor(
      new Workflow({ name: 'wf', edges: [[START, review, { fast, slow }]] }),
    );
    await turn(runner, 'urgent fix');
    const second = await turn(runner, answer('review', REQUEST_INPUT_FUNCTION_NAME, { ok: true }));
    expect(outputs(second).map((record) => [record.node, record.route])).toEqual([
      ['review', 'fast'],
      ['fast', undefined],
    ]);
    expect(workflowOutput(second)).toBe('fast lane: true');
  });
});
