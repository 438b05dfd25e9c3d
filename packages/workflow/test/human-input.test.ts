import { FunctionTool, getFunctionCalls, LlmAgent, SequentialAgent, type Event } from '@adk/core';
import { FakeModel, fakeFunctionCall } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  functionNode,
  ParallelWorker,
  REQUEST_INPUT_FUNCTION_NAME,
  START,
  Workflow,
  type NodeContext,
} from '../src';
import { answer, outputs, runnerFor, turn, workflowOutput } from './helpers';

function inputRequests(events: readonly Event[]) {
  return events.flatMap((event) =>
    getFunctionCalls(event.content).filter((call) => call.name === REQUEST_INPUT_FUNCTION_NAME),
  );
}

describe('human input inside a node', () => {
  it('the run pauses on the request; the answer becomes the output and the run goes on', async () => {
    let drafted = 0;
    const draft = () => {
      drafted++;
      return 'draft v1';
    };
    const approve = (text: string, ctx: NodeContext) => {
      ctx.requestInput({ id: 'approval', message: `Publish "${text}"?` });
    };
    const publish = (reply: { ok: boolean }) => (reply.ok ? 'published' : 'dropped');
    const runner = runnerFor(
      new Workflow({ name: 'wf', edges: [[START, draft, approve, publish]] }),
    );
    const first = await turn(runner, 'go');
    const [request] = inputRequests(first);
    expect(request).toMatchObject({
      id: 'approval',
      args: { interruptId: 'approval', message: 'Publish "draft v1"?' },
    });
    expect(first.at(-1)?.longRunningToolIds).toEqual(['approval']);
    expect(workflowOutput(first)).toBeUndefined();
    const second = await turn(
      runner,
      answer('approval', REQUEST_INPUT_FUNCTION_NAME, { ok: true }),
    );
    expect(drafted).toBe(1);
    expect(outputs(second).map((r) => [r.node, r.output])).toEqual([
      ['approve', { ok: true }],
      ['publish', 'published'],
    ]);
    expect(workflowOutput(second)).toBe('published');
  });

  it('with rerunOnResume the node runs again and reads the answer', async () => {
    const runs: unknown[] = [];
    const ask = functionNode({
      name: 'ask',
      rerunOnResume: true,
      run: (_: unknown, ctx) => {
        const name = ctx.resumeInput('name');
        runs.push(name);
        if (name === undefined) return ctx.requestInput({ id: 'name', message: 'Your name?' });
        return `hello ${String(name)}`;
      },
    });
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, ask]] }));
    await turn(runner, 'go');
    const second = await turn(
      runner,
      answer('name', REQUEST_INPUT_FUNCTION_NAME, { result: 'Ada' }),
    );
    expect(runs).toEqual([undefined, 'Ada']);
    expect(workflowOutput(second)).toBe('hello Ada');
  });

  it('a message that answers nothing leaves the paused run waiting', async () => {
    const ask = (_: unknown, ctx: NodeContext) => ctx.requestInput({ id: 'q', message: '?' });
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, ask]] }));
    await turn(runner, 'go');
    expect(await turn(runner, 'hello?')).toEqual([]);
    const done = await turn(runner, answer('q', REQUEST_INPUT_FUNCTION_NAME, { result: 42 }));
    expect(workflowOutput(done)).toBe(42);
    // Answering again (the run is over) starts nothing.
    expect(await turn(runner, answer('q', REQUEST_INPUT_FUNCTION_NAME, { result: 43 }))).toEqual(
      [],
    );
  });

  it('an LlmAgent node paused on a tool confirmation resumes inside the workflow', async () => {
    let refunded = 0;
    const refund = new FunctionTool({
      name: 'refund',
      description: 'refund an order',
      parameters: z.object({ order: z.string() }),
      requireConfirmation: true,
      execute: ({ order }) => {
        refunded++;
        return { refunded: order };
      },
    });
    const model = new FakeModel({
      responses: [fakeFunctionCall('refund', { order: 'A1' }, 'c1'), 'Refunded A1.'],
    });
    const agent = new LlmAgent({ name: 'clerk', model, tools: [refund] });
    const receipt = (text: string) => `receipt: ${text}`;
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, agent, receipt]] }));
    const first = await turn(runner, 'refund A1');
    const confirmation = first
      .flatMap((e) => getFunctionCalls(e.content))
      .find((call) => call.name === 'adk_request_confirmation');
    expect(confirmation?.id).toBeDefined();
    expect(outputs(first)).toEqual([]);
    const second = await turn(
      runner,
      answer(confirmation?.id as string, 'adk_request_confirmation', { confirmed: true }),
    );
    expect(refunded).toBe(1);
    expect(workflowOutput(second)).toBe('receipt: Refunded A1.');
  });

  it('a pause inside a nested workflow inside a SequentialAgent resumes all the way out', async () => {
    const ask = (_: unknown, ctx: NodeContext) =>
      ctx.requestInput({ id: 'size', message: 'Size?' });
    const inner = new Workflow({ name: 'inner', edges: [[START, ask]] });
    const label = (size: unknown) => `size ${JSON.stringify(size)}`;
    const outer = new Workflow({ name: 'outer', edges: [[START, inner, label]] });
    const closingModel = new FakeModel({ responses: ['Thanks!'] });
    const closing = new LlmAgent({ name: 'closing', model: closingModel });
    const root = new SequentialAgent({ name: 'root', subAgents: [outer, closing] });
    const runner = runnerFor(root);
    const first = await turn(runner, 'go');
    expect(inputRequests(first).map((call) => call.id)).toEqual(['size']);
    expect(closingModel.requests).toHaveLength(0);
    const second = await turn(
      runner,
      answer('size', REQUEST_INPUT_FUNCTION_NAME, { result: 'XL' }),
    );
    expect(workflowOutput(second.filter((e) => e.author === 'outer'))).toBe('size "XL"');
    expect(closingModel.requests).toHaveLength(1);
  });

  it('parallel worker items ask one at a time; finished items are not run again', async () => {
    const ran: number[] = [];
    const check = functionNode({
      name: 'check',
      run: (n: number, ctx) => {
        ran.push(n);
        if (n === 2) ctx.requestInput({ id: 'confirm-2', message: 'Keep 2?' });
        return n;
      },
    });
    const worker = new ParallelWorker({ name: 'checks', node: check, maxConcurrency: 3 });
    const list = () => [1, 2, 3];
    const runner = runnerFor(new Workflow({ name: 'wf', edges: [[START, list, worker]] }));
    await turn(runner, 'go');
    expect(ran.sort()).toEqual([1, 2, 3]);
    const second = await turn(
      runner,
      answer('confirm-2', REQUEST_INPUT_FUNCTION_NAME, { result: 20 }),
    );
    expect(ran.sort()).toEqual([1, 2, 3]);
    expect(workflowOutput(second)).toEqual([1, 20, 3]);
  });
});
