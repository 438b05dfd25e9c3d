import type { Event } from '@adk/core';
import { describe, expect, it } from 'vitest';

import {
  ERROR_ROUTE,
  functionNode,
  ParallelWorker,
  REQUEST_INPUT_FUNCTION_NAME,
  START,
  Workflow,
  type NodeContext,
  type StoredNodeError,
} from '../src';
import { answer, delay, outputs, runnerFor, turn, workflowOutput } from './helpers';

/** Resolves when `signal` aborts, or after `ms` (a node that would run on if not cancelled). */
function untilAborted(signal: AbortSignal, ms: number): Promise<'aborted' | 'ran on'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('ran on'), ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve('aborted');
    });
  });
}

const errorEvents = (events: readonly Event[]) => events.filter((e) => e.errorCode !== undefined);

function boomAfter(ms: number) {
  return async function boom(): Promise<never> {
    await delay(ms);
    throw new Error('boom');
  };
}

describe('a failure cancels the work still running', () => {
  it('cancels a node running inside a sibling nested workflow; its output is not stored', async () => {
    const seen: string[] = [];
    const slowInner = async (_: unknown, ctx: NodeContext) => {
      seen.push(await untilAborted(ctx.signal, 8000));
      return 'inner done';
    };
    const inner = new Workflow({ name: 'inner', edges: [[START, slowInner]] });
    const outer = new Workflow({ name: 'outer', edges: [[START, [boomAfter(30), inner]]] });
    const started = performance.now();
    const events = await turn(runnerFor(outer), 'go');
    expect(performance.now() - started).toBeLessThan(6000);
    await delay(20);
    expect(seen).toEqual(['aborted']);
    expect(outputs(events).map((record) => record.node)).toEqual(['boom']);
  });

  it('does not wait for a running sibling that ignores its signal', async () => {
    let settle: (() => void) | undefined;
    const stubborn = () => new Promise<string>((resolve) => (settle = () => resolve('late')));
    const outer = new Workflow({ name: 'wf', edges: [[START, [boomAfter(20), stubborn]]] });
    const events = await turn(runnerFor(outer), 'go');
    expect(errorEvents(events)).toHaveLength(1);
    settle?.();
    await delay(20);
    expect(outputs(events).map((record) => record.node)).toEqual(['boom']);
  });

  it('cancels the other items of a ParallelWorker and starts no more of them', async () => {
    const started: number[] = [];
    const results: string[] = [];
    const item = functionNode({
      name: 'item',
      run: async (index: number, ctx) => {
        started.push(index);
        if (index === 0) {
          await delay(30);
          throw new Error('boom');
        }
        results.push(`${index} ${await untilAborted(ctx.signal, 8000)}`);
        return index;
      },
    });
    const worker = new ParallelWorker({ name: 'worker', node: item, maxConcurrency: 2 });
    const list = () => [0, 1, 2, 3, 4];
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, list, worker]] })),
      'go',
    );
    await delay(20);
    expect(started).toEqual([0, 1]);
    expect(results).toEqual(['1 aborted']);
    const itemOutputs = outputs(events).filter((record) => record.node === 'item');
    expect(itemOutputs.map((record) => [record.path, record.error !== undefined])).toEqual([
      ['worker@1/item@1', true],
    ]);
    expect(errorEvents(events)).toHaveLength(1);
  });
});

describe('one failure, one error event', () => {
  it('a failure in a nested workflow gives one error event stating the failure once', async () => {
    const inner = new Workflow({ name: 'inner', edges: [[START, boomAfter(1)]] });
    const outer = new Workflow({ name: 'outer', edges: [[START, inner]] });
    const events = await turn(runnerFor(outer), 'go');
    const errors = errorEvents(events);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.author).toBe('outer');
    expect(errors[0]?.errorMessage).toBe('Node "boom" failed after 1 attempt: boom');
  });

  it('a failing ParallelWorker item gives one error event stating the failure once', async () => {
    const item = functionNode({
      name: 'item',
      run: (index: number) => {
        if (index === 1) throw new Error('bad item');
        return index;
      },
    });
    const worker = new ParallelWorker({ name: 'worker', node: item });
    const list = () => [0, 1];
    const events = await turn(
      runnerFor(new Workflow({ name: 'wf', edges: [[START, list, worker]] })),
      'go',
    );
    const errors = errorEvents(events);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.errorMessage).toBe('Node "item" failed after 1 attempt: bad item');
  });
});

describe('a handled failure is not a failure', () => {
  it('a failure an ERROR_ROUTE edge takes is recorded as handled, with no error event', async () => {
    const fetchPrice = () => {
      throw new Error('upstream down');
    };
    const fallback = (error: StoredNodeError) => `cached (${error.message})`;
    const workflow = new Workflow({
      name: 'wf',
      edges: [[START, fetchPrice, { [ERROR_ROUTE]: fallback }]],
    });
    const events = await turn(runnerFor(workflow), 'go');
    expect(errorEvents(events)).toEqual([]);
    const [failed] = outputs(events);
    expect(failed).toMatchObject({ node: 'fetchPrice', handled: true });
    expect(failed?.error?.message).toMatch(/upstream down/);
    expect(workflowOutput(events)).toMatch(/^cached \(/);
  });

  it('a handled failure is not run again when the run resumes', async () => {
    let calls = 0;
    const fetchPrice = () => {
      calls++;
      throw new Error('upstream down');
    };
    function confirm(error: StoredNodeError, ctx: NodeContext) {
      ctx.requestInput({ id: 'confirm', message: `Use the cached price? (${error.message})` });
    }
    const runner = runnerFor(
      new Workflow({ name: 'wf', edges: [[START, fetchPrice, { [ERROR_ROUTE]: confirm }]] }),
    );
    await turn(runner, 'go');
    const second = await turn(runner, answer('confirm', REQUEST_INPUT_FUNCTION_NAME, { ok: true }));
    expect(calls).toBe(1);
    expect(workflowOutput(second)).toEqual({ ok: true });
    expect(errorEvents(second)).toEqual([]);
  });
});
