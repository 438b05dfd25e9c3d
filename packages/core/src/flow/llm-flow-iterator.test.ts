import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { makeContext } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getFunctionCalls, getText } from '../content';
import type { Event } from '../events';
import { FakeModel } from '../testing/fake-model';
import { FunctionTool } from '../tools/function-tool';
import { runLlmFlow } from './llm-flow';
import { registerStepPostprocessor } from './postprocessors';

/**
 * What a consumer can observe of the flow's iterator, pinned against the async generator it
 * replaced: the order of the events, calls made without waiting, `return()` and `throw()` at each
 * point, errors, and postprocessors that hand out events of their own.
 */
function toolAgent(model: FakeModel, execute: () => unknown = () => 'sunny'): LlmAgent {
  const tool = new FunctionTool({
    name: 'weather',
    description: 'The weather.',
    parameters: z.object({ city: z.string() }),
    execute,
  });
  return new LlmAgent({ name: 'helper', model, tools: [tool] });
}

function callThenAnswer(): FakeModel {
  return new FakeModel([{ functionCalls: [{ name: 'weather', args: { city: 'Oslo' } }] }, 'done']);
}

/** A short description of an event: what it says or calls, or its function responses. */
function shape(event: Event): string {
  const calls = getFunctionCalls(event.content);
  if (calls.length > 0) return `call:${calls.map((call) => call.name).join(',')}`;
  const responses = event.content?.parts?.filter((part) => part.functionResponse) ?? [];
  if (responses.length > 0) return `response:${responses.length}`;
  if (event.errorCode !== undefined) return `error:${event.errorCode}`;
  return `text:${getText(event.content)}`;
}

async function flow(agent: LlmAgent) {
  const ctx = await makeContext(agent);
  return { ctx, events: runLlmFlow(agent, ctx), model: agent.model as FakeModel };
}

describe('the flow as an iterator', () => {
  it('hands out the call, the response and the answer in order, then stays done', async () => {
    const model = callThenAnswer();
    const { events } = await flow(toolAgent(model));
    const seen: string[] = [];
    for (;;) {
      const next = await events.next();
      if (next.done) {
        expect(next.value).toBeUndefined();
        break;
      }
      seen.push(shape(next.value));
    }
    expect(seen).toEqual(['call:weather', 'response:1', 'text:done']);
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(model.callCount).toBe(2);
  });

  it('answers next() calls made without waiting in order', async () => {
    const { events } = await flow(toolAgent(callThenAnswer()));
    const results = await Promise.all([events.next(), events.next(), events.next(), events.next()]);
    expect(results.map((result) => (result.done ? 'done' : shape(result.value)))).toEqual([
      'call:weather',
      'response:1',
      'text:done',
      'done',
    ]);
  });

  it('runs nothing when returned before its first event', async () => {
    const model = callThenAnswer();
    const { events } = await flow(toolAgent(model));
    expect(await events.return(undefined)).toEqual({ value: undefined, done: true });
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(model.callCount).toBe(0);
  });

  it('runs no tool and no second model call when returned after the first event', async () => {
    const model = callThenAnswer();
    let ran = 0;
    const { events } = await flow(toolAgent(model, () => ++ran));
    expect(shape(((await events.next()) as IteratorYieldResult<Event>).value)).toBe('call:weather');
    expect(await events.return(undefined)).toEqual({ value: undefined, done: true });
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect([ran, model.callCount]).toEqual([0, 1]);
  });

  it('rejects throw() with its error after an event, then is done', async () => {
    const model = callThenAnswer();
    const { events } = await flow(toolAgent(model));
    await events.next();
    const error = new Error('consumer failed');
    await expect(events.throw(error)).rejects.toBe(error);
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(model.callCount).toBe(1);
  });

  it('rejects throw() before its first event without running anything', async () => {
    const model = callThenAnswer();
    const { events } = await flow(toolAgent(model));
    const error = new Error('early');
    await expect(events.throw(error)).rejects.toBe(error);
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(model.callCount).toBe(0);
  });

  it('turns a failed model call into an error event that ends the flow', async () => {
    const { events } = await flow(toolAgent(new FakeModel([new Error('boom')])));
    const seen: Event[] = [];
    for await (const event of events) seen.push(event);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.errorCode).toBeDefined();
    expect(seen[0]!.errorMessage).toContain('boom');
  });

  it('rejects next() with an error of a model callback, then is done', async () => {
    const failure = new Error('callback failed');
    const agent = new LlmAgent({
      name: 'helper',
      model: new FakeModel(['hello']),
      afterModelCallback: () => {
        throw failure;
      },
    });
    const { events } = await flow(agent);
    await expect(events.next()).rejects.toBeDefined();
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('stops between events once the run is aborted', async () => {
    const controller = new AbortController();
    const model = callThenAnswer();
    const agent = toolAgent(model);
    const ctx = await makeContext(agent);
    const aborted = ctx.createChild({ agent });
    Object.defineProperty(aborted, 'signal', { value: controller.signal });
    const events = runLlmFlow(agent, aborted);
    expect(shape(((await events.next()) as IteratorYieldResult<Event>).value)).toBe('call:weather');
    controller.abort();
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(model.callCount).toBe(1);
  });

  it('hands out the events of a postprocessor, and closes its generator on return()', async () => {
    let closed = 0;
    const remove = registerStepPostprocessor(({ agent, ctx }) =>
      (async function* () {
        try {
          for (const text of ['note 1', 'note 2']) {
            await Promise.resolve();
            yield {
              id: text,
              invocationId: ctx.invocationId,
              author: agent.name,
              timestamp: 0,
              actions: { stateDelta: {}, artifactDelta: {} },
              content: { role: 'model', parts: [{ text }] },
            } as unknown as Event;
          }
        } finally {
          closed++;
        }
      })(),
    );
    try {
      const all = await flow(toolAgent(callThenAnswer()));
      const seen: string[] = [];
      for await (const event of all.events) seen.push(shape(event));
      // The last note is a final response: the step ends there, with no second model call.
      expect(seen).toEqual(['call:weather', 'response:1', 'text:note 1', 'text:note 2']);
      expect([closed, all.model.callCount]).toEqual([1, 1]);

      const stopped = await flow(toolAgent(callThenAnswer()));
      const first: string[] = [];
      for await (const event of stopped.events) {
        first.push(shape(event));
        if (first.length === 3) break;
      }
      expect(first).toEqual(['call:weather', 'response:1', 'text:note 1']);
      expect(closed).toBe(2);
    } finally {
      remove();
    }
  });
});

describe('the flow as an iterator, streaming', () => {
  /** Streams two chunks, then a final answer; counts whether its generator was closed early. */
  function chunkModel() {
    const counts = { closed: 0, completed: 0 };
    const model = {
      name: 'chunks',
      async *generate() {
        let finished = false;
        try {
          for (const text of ['a', 'b'])
            yield { content: { role: 'model' as const, parts: [{ text }] }, partial: true };
          yield {
            content: { role: 'model' as const, parts: [{ text: 'ab' }] },
            turnComplete: true,
          };
          finished = true;
        } finally {
          if (finished) counts.completed++;
          else counts.closed++;
        }
      },
    };
    return { model, counts };
  }

  async function streamingFlow() {
    const { model, counts } = chunkModel();
    const agent = new LlmAgent({ name: 'helper', model });
    const ctx = await makeContext(agent, { runConfig: { streamingMode: 'sse' } });
    return { events: runLlmFlow(agent, ctx), counts };
  }

  it('hands out the partial events, then the final one', async () => {
    const { events, counts } = await streamingFlow();
    const seen: string[] = [];
    for await (const event of events)
      seen.push(`${getText(event.content)}${event.partial ? '…' : ''}`);
    expect(seen).toEqual(['a…', 'b…', 'ab']);
    expect(counts).toEqual({ closed: 0, completed: 1 });
  });

  it('closes the model stream on return() mid-stream', async () => {
    const { events, counts } = await streamingFlow();
    await events.next();
    expect(await events.return(undefined)).toEqual({ value: undefined, done: true });
    expect(counts).toEqual({ closed: 1, completed: 0 });
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('closes the model stream and rejects with the error on throw() mid-stream', async () => {
    const { events, counts } = await streamingFlow();
    await events.next();
    const error = new Error('consumer failed');
    await expect(events.throw(error)).rejects.toBe(error);
    expect(counts).toEqual({ closed: 1, completed: 0 });
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });
});
