import { getText, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import {
  AgentNode,
  DEFAULT_ROUTE,
  functionNode,
  JoinNode,
  ParallelWorker,
  START,
  Workflow,
  type NodeContext,
} from '../src';
import { delay, outputs, runnerFor, turn, workflowOutput } from './helpers';

describe('routing', () => {
  it('the route a node sets selects the outgoing edges; an LlmAgent answers on its branch', async () => {
    const billingModel = new FakeModel({ responses: ['Your refund is on its way.'] });
    const billing = new LlmAgent({ name: 'billing', model: billingModel });
    const classify = (text: string, ctx: NodeContext) => {
      ctx.route = text.includes('refund') ? 'billing' : 'other';
      return text.toUpperCase();
    };
    const other = (text: string) => `no idea about ${text}`;
    const workflow = new Workflow({
      name: 'support',
      edges: [[START, classify, { billing, other }]],
    });
    const runner = runnerFor(workflow);
    const events = await turn(runner, 'I want a refund');
    expect(outputs(events).map((record) => [record.node, record.route])).toEqual([
      ['classify', 'billing'],
      ['billing', undefined],
    ]);
    // The agent received the classifier's output as its user message.
    expect(getText(billingModel.requests[0]?.contents.at(-1))).toBe('I WANT A REFUND');
    expect(workflowOutput(events)).toBe('Your refund is on its way.');
    const second = await turn(runner, 'hello', 's2');
    expect(workflowOutput(second)).toBe('no idea about HELLO');
    expect(getText(second.at(-1)?.content)).toBe('no idea about HELLO');
    expect(billingModel.requests).toHaveLength(1);
  });

  it('a route no edge names takes the DEFAULT_ROUTE edge', async () => {
    const pick = (_: unknown, ctx: NodeContext) => {
      ctx.route = 'unknown';
      return 1;
    };
    const fallback = (n: number) => n + 1;
    const named = (n: number) => n + 100;
    const workflow = new Workflow({
      name: 'wf',
      edges: [[START, pick, { known: named, [DEFAULT_ROUTE]: fallback }]],
    });
    expect(workflowOutput(await turn(runnerFor(workflow), 'go'))).toBe(2);
  });

  it('an LlmAgent with an outputSchema outputs the parsed value to the next node', async () => {
    const model = new FakeModel({ responses: ['{"city":"Paris","days":3}'] });
    const planner = new LlmAgent({
      name: 'planner',
      model,
      outputSchema: z.object({ city: z.string(), days: z.number() }),
    });
    const summary = functionNode({
      name: 'summary',
      inputSchema: z.object({ city: z.string(), days: z.number() }),
      run: (trip) => `${trip.days} days in ${trip.city}`,
    });
    const workflow = new Workflow({ name: 'trip', edges: [[START, planner, summary]] });
    expect(workflowOutput(await turn(runnerFor(workflow), 'plan'))).toBe('3 days in Paris');
  });
});

describe('fan-out and fan-in', () => {
  it('a join waits for every predecessor and gets their outputs keyed by name', async () => {
    const flights = async () => {
      await delay(30);
      return ['AF1'];
    };
    const hotels = () => ['Ritz'];
    const join = new JoinNode({ name: 'both' });
    const plan = (input: { flights: string[]; hotels: string[] }) =>
      `${input.flights.join()} + ${input.hotels.join()}`;
    const workflow = new Workflow({
      name: 'trip',
      edges: [[START, [flights, hotels], join, plan]],
    });
    const events = await turn(runnerFor(workflow), 'go');
    expect(workflowOutput(events)).toBe('AF1 + Ritz');
    expect(outputs(events).filter((record) => record.node === 'plan')).toHaveLength(1);
  });

  it('runs N fan-out nodes at once, not one after another', async () => {
    const n = 8;
    // Each node waits until all N have started: run one after another, the first one would wait
    // for ever (it gives up after 30 s), so the test proves concurrency without a time budget.
    let started = 0;
    let allStarted!: () => void;
    const everyoneIn = new Promise<void>((resolve) => (allStarted = resolve));
    const branches = Array.from({ length: n }, (_, i) =>
      functionNode({
        name: `slow_${i}`,
        run: async () => {
          if (++started === n) allStarted();
          let timer: NodeJS.Timeout | undefined;
          const gaveUp = new Promise<'gave up'>((resolve) => {
            timer = setTimeout(() => resolve('gave up'), 30_000);
          });
          const outcome = await Promise.race([everyoneIn, gaveUp]);
          clearTimeout(timer);
          return outcome === 'gave up' ? 'alone' : i;
        },
      }),
    );
    const join = new JoinNode({ name: 'all' });
    const workflow = new Workflow({ name: 'fan', edges: [[START, branches, join]] });
    const events = await turn(runnerFor(workflow), 'go');
    expect(Object.values(workflowOutput(events) as object).sort()).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7,
    ]);
  });

  it('maxConcurrency bounds the graph nodes running at once', async () => {
    let running = 0;
    let peak = 0;
    const branches = Array.from({ length: 6 }, (_, i) =>
      functionNode({
        name: `b_${i}`,
        run: async () => {
          peak = Math.max(peak, ++running);
          await delay(20);
          running--;
          return i;
        },
      }),
    );
    const workflow = new Workflow({
      name: 'fan',
      maxConcurrency: 2,
      edges: [[START, branches, new JoinNode({ name: 'all' })]],
    });
    await turn(runnerFor(workflow), 'go');
    expect(peak).toBe(2);
  });
});

describe('loops', () => {
  it('a cycle through a routed edge loops until the exit route', async () => {
    const seen: number[] = [];
    const init = () => 0;
    const step = (n: number, ctx: NodeContext) => {
      seen.push(n);
      ctx.route = n + 1 < 3 ? 'again' : 'done';
      return n + 1;
    };
    const finish = (n: number) => `counted to ${n}`;
    const workflow = new Workflow({
      name: 'loop',
      edges: [
        [START, init, step],
        [step, { again: step, done: finish }],
      ],
    });
    const events = await turn(runnerFor(workflow), 'go');
    expect(seen).toEqual([0, 1, 2]);
    expect(outputs(events).map((record) => record.path)).toEqual([
      'init@1',
      'step@1',
      'step@2',
      'step@3',
      'finish@1',
    ]);
    expect(workflowOutput(events)).toBe('counted to 3');
  });
});

describe('parallel worker', () => {
  it('maps a node over a list with bounded concurrency, results in input order', async () => {
    let running = 0;
    let peak = 0;
    const square = functionNode({
      name: 'square',
      run: async (n: number) => {
        peak = Math.max(peak, ++running);
        await delay(100);
        running--;
        return n * n;
      },
    });
    const worker = new ParallelWorker({ name: 'squares', node: square, maxConcurrency: 4 });
    const numbers = () => [1, 2, 3, 4, 5, 6, 7, 8];
    const workflow = new Workflow({ name: 'map', edges: [[START, numbers, worker]] });
    const started = performance.now();
    const events = await turn(runnerFor(workflow), 'go');
    const elapsed = performance.now() - started;
    expect(workflowOutput(events)).toEqual([1, 4, 9, 16, 25, 36, 49, 64]);
    // Four at a time: never more, and at least two rounds of 100 ms (no upper time bound, which a
    // busy machine would break; the peak already shows the four ran together).
    expect(peak).toBe(4);
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(
      outputs(events)
        .filter((r) => r.node === 'square')
        .map((r) => r.path),
    ).toHaveLength(8);
  });
});

describe('branches', () => {
  it('concurrent agent executions each see only their own input (a branch per execution)', async () => {
    const model = new FakeModel({
      responses: (request) => `seen: ${getText(request.contents.at(-1))}`,
    });
    const describeItem = new LlmAgent({ name: 'describe_item', model });
    const worker = new ParallelWorker({
      name: 'describe_all',
      node: new AgentNode(describeItem),
      maxConcurrency: 3,
    });
    const items = () => ['apple', 'pear', 'plum'];
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, items, worker]] })),
      'go',
    );
    expect(workflowOutput(events)).toEqual(['seen: apple', 'seen: pear', 'seen: plum']);
    for (const request of model.requests) {
      const texts = request.contents.map((content) => getText(content));
      expect(texts.filter((text) => ['apple', 'pear', 'plum'].includes(text))).toHaveLength(1);
    }
    expect(
      new Set(events.filter((e) => e.author === 'describe_item').map((e) => e.branch)),
    ).toEqual(
      new Set([
        'describe_all@1.describe_item@1',
        'describe_all@1.describe_item@2',
        'describe_all@1.describe_item@3',
      ]),
    );
  });
});

describe('nested workflows', () => {
  it('a workflow is a node of another: value in, output out', async () => {
    const double = (n: number) => n * 2;
    const inner = new Workflow({
      name: 'inner',
      inputSchema: z.number(),
      outputSchema: z.number(),
      edges: [[START, double]],
    });
    const parse = (text: string) => Number(text);
    const show = (n: number) => `result ${n}`;
    const outer = new Workflow({ name: 'outer', edges: [[START, parse, inner, show]] });
    const events = await turn(runnerFor(outer), '21');
    expect(workflowOutput(events.filter((e) => e.author === 'outer'))).toBe('result 42');
    expect(outputs(events).map((r) => `${r.workflow}:${r.node}`)).toEqual([
      'outer:parse',
      'inner:double',
      'outer:inner',
      'outer:show',
    ]);
  });
});
