import { FunctionTool, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  AgentNode,
  ERROR_ROUTE,
  functionNode,
  START,
  Workflow,
  type NodeContext,
  type StoredNodeError,
} from '../src';
import { delay, outputs, runnerFor, turn, workflowOutput } from './helpers';

describe('retry, timeout and error routes', () => {
  it('retries a failing node with backoff until it succeeds', async () => {
    const times: number[] = [];
    const flaky = functionNode({
      name: 'flaky',
      retry: { maxAttempts: 3, initialDelayMs: 20, backoffMultiplier: 2, jitter: 0 },
      run: (_: unknown, ctx) => {
        times.push(performance.now());
        if (ctx.attempt < 3) throw new Error(`boom ${ctx.attempt}`);
        return 'ok';
      },
    });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, flaky]] })),
      'go',
    );
    expect(workflowOutput(events)).toBe('ok');
    expect(outputs(events)[0]?.attempts).toBe(3);
    expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(18);
    expect((times[2] as number) - (times[1] as number)).toBeGreaterThanOrEqual(38);
  });

  it('retries only the errors retryOn accepts', async () => {
    let calls = 0;
    const picky = functionNode({
      name: 'picky',
      retry: {
        maxAttempts: 5,
        initialDelayMs: 1,
        retryOn: (e) => (e as Error).message === 'transient',
      },
      run: () => {
        calls++;
        throw new Error(calls === 1 ? 'transient' : 'fatal');
      },
    });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, picky]] })),
      'go',
    );
    expect(calls).toBe(2);
    expect(events.at(-1)?.errorCode).toBe('WORKFLOW_NODE_FAILED');
    expect(events.at(-1)?.errorMessage).toMatch(/fatal/);
  });

  it('a node over its timeout fails with NodeTimeoutError and its signal is aborted', async () => {
    let aborted = false;
    const slow = functionNode({
      name: 'slow',
      timeoutMs: 30,
      run: async (_: unknown, ctx) => {
        ctx.signal.addEventListener('abort', () => (aborted = true));
        await delay(60_000);
        return 'late';
      },
    });
    const started = performance.now();
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, slow]] })),
      'go',
    );
    // The turn did not wait for the node (a minute): a bound far from both, for a busy machine.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(aborted).toBe(true);
    const failure = outputs(events)[0]?.error as StoredNodeError;
    expect(failure).toMatchObject({
      code: 'WORKFLOW_NODE_FAILED',
      causeCode: 'WORKFLOW_NODE_TIMEOUT',
      attempts: 1,
    });
  });

  it('an agent node over its timeout fails the node; the agent is stopped', async () => {
    const model = new FakeModel({
      responses: async () => {
        await delay(60_000);
        return 'too late';
      },
    });
    const agent = new AgentNode(new LlmAgent({ name: 'slow_agent', model }), { timeoutMs: 40 });
    const started = performance.now();
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, agent]] })),
      'go',
    );
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(outputs(events)[0]?.error?.causeCode).toBe('WORKFLOW_NODE_TIMEOUT');
    expect(events.some((event) => event.author === 'slow_agent')).toBe(false);
  });

  it('a failure becomes a typed error record that an ERROR_ROUTE edge handles', async () => {
    const fetchPrice = () => {
      throw new Error('upstream down');
    };
    const fallback = (error: StoredNodeError) => `cached price (${error.message})`;
    const never = () => 'unreachable';
    const workflow = new Workflow({
      name: 'wf',
      edges: [
        [START, fetchPrice, never],
        [fetchPrice, { [ERROR_ROUTE]: fallback }],
      ],
    });
    const events = await turn(runnerFor(workflow), 'go');
    const failed = outputs(events)[0]?.error;
    expect(failed?.code).toBe('WORKFLOW_NODE_FAILED');
    expect(failed?.message).toMatch(/Node "fetchPrice" failed after 1 attempt: upstream down/);
    expect(workflowOutput(events)).toMatch(/^cached price \(Node "fetchPrice" failed/);
    expect(outputs(events).map((r) => r.node)).toEqual(['fetchPrice', 'fallback']);
  });

  it('an unhandled failure ends the run with an error event and stops scheduling', async () => {
    const broken = () => {
      throw new Error('bad');
    };
    const after = () => 'never';
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, broken, after]] })),
      'go',
    );
    expect(outputs(events).map((r) => r.node)).toEqual(['broken']);
    expect(events.at(-1)).toMatchObject({ errorCode: 'WORKFLOW_NODE_FAILED', author: 'wf' });
  });

  it('an output that fails the outputSchema fails the node', async () => {
    const bad = functionNode({
      name: 'bad',
      outputSchema: z.number(),
      run: () => 'text' as unknown as number,
    });
    const events = await turn(runnerFor(new Workflow({ name: 'wf', edges: [[START, bad]] })), 'go');
    expect(outputs(events)[0]?.error?.causeCode).toBe('WORKFLOW_NODE_OUTPUT_INVALID');
  });
});

describe('state, tools and dynamic nodes', () => {
  it('a node writes state through its output event; a later node reads it by name', async () => {
    const remember = (text: string, ctx: NodeContext) => {
      ctx.state.set('topic', text);
      return text;
    };
    const recall = functionNode({
      name: 'recall',
      stateKeys: ['topic'],
      run: (_: unknown, _ctx, state) => `topic was ${String(state.topic)}`,
    });
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, remember, recall]] }));
    const events = await turn(runner, 'cats');
    expect(workflowOutput(events)).toBe('topic was cats');
    const record = events.find((e) => outputs([e])[0]?.node === 'remember');
    expect(record?.actions.stateDelta).toEqual({ topic: 'cats' });
    const session = await runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: 's',
    });
    expect(session?.state.topic).toBe('cats');
  });

  it('a tool is a node: its input object is the arguments', async () => {
    const add = new FunctionTool({
      name: 'add',
      description: 'adds',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => ({ sum: a + b }),
    });
    const args = () => ({ a: 2, b: 3 });
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, args, add]] })),
      'go',
    );
    expect(workflowOutput(events)).toEqual({ sum: 5 });
  });

  it('a node schedules another node at run time and awaits its output', async () => {
    const double = (n: number) => n * 2;
    const plan = async (_: unknown, ctx: NodeContext) => {
      const a = await ctx.runNode<number>(double, 1);
      const b = await ctx.runNode<number>(double, a);
      return a + b;
    };
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, plan]] })),
      'go',
    );
    expect(workflowOutput(events)).toBe(6);
    expect(outputs(events).map((r) => r.path)).toEqual([
      'plan@1/double@1',
      'plan@1/double@2',
      'plan@1',
    ]);
  });
});
