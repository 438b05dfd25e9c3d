import { describe, expect, it } from 'vitest';

import { functionNode, START, Workflow } from '../src';
import { outputs, runnerFor, turn, workflowOutput } from './helpers';

describe('node timeouts', () => {
  it('a node that returns once its timeout fired does not win over the timeout', async () => {
    const slow = functionNode({
      name: 'slow',
      timeoutMs: 30,
      // Gives up when told, and returns what it has: too late, the timeout already fired.
      run: (_: unknown, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => resolve('partial'));
        }),
    });
    const after = (text: string) => `used ${text}`;
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, slow, after]] })),
      'go',
    );
    expect(outputs(events)[0]?.error).toMatchObject({
      name: 'NodeTimeoutError',
      causeCode: 'WORKFLOW_NODE_TIMEOUT',
    });
    expect(workflowOutput(events)).toBeUndefined();
    expect(events.at(-1)?.errorCode).toBe('WORKFLOW_NODE_FAILED');
  });

  it("a rejection with the node signal's reason is reported as the timeout", async () => {
    const slow = functionNode({
      name: 'slow',
      timeoutMs: 30,
      // What fetch(url, { signal }) does: reject with the signal's reason.
      run: (_: unknown, ctx) =>
        new Promise<string>((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error));
        }),
    });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, slow]] })),
      'go',
    );
    expect(outputs(events)[0]?.error).toMatchObject({
      name: 'NodeTimeoutError',
      causeCode: 'WORKFLOW_NODE_TIMEOUT',
    });
    expect(outputs(events)[0]?.error?.message).toMatch(/within 30 ms/);
    expect(events.at(-1)?.errorCode).toBe('WORKFLOW_NODE_FAILED');
  });
});
