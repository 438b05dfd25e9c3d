import { describe, expect, it } from 'vitest';

import { setup, SESSION, USER } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { userContent } from '../content';
import type { Event } from '../events';
import { BasePlugin, type AfterRunHookArgs, type RunErrorHookArgs } from '../plugins/base-plugin';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';

/**
 * `Runner.run` returns a hand-written iterator (`RunEvents`), not an async generator: these tests
 * hold it to what the async generator did with the calls a caller can make in any order.
 */

const echo = new FunctionTool({
  name: 'echo',
  description: 'echo',
  execute: (args) => ({ echoed: args.text }),
});

/** Records what `afterRun` and `onRunError` see. */
class Recorder extends BasePlugin {
  readonly afterRuns: Event[][] = [];
  readonly errors: unknown[] = [];
  constructor() {
    super('recorder');
  }
  override afterRun(args: AfterRunHookArgs) {
    this.afterRuns.push([...args.events]);
  }
  override onRunError(args: RunErrorHookArgs) {
    this.errors.push(args.error);
  }
}

function toolAgent(): LlmAgent {
  return new LlmAgent({
    name: 'agent',
    model: new FakeModel([fakeFunctionCall('echo', { text: 'a' }), 'done']),
    tools: [echo],
  });
}

describe('Runner.run as an iterator', () => {
  it('return() before the first next() runs nothing', async () => {
    const { runner, session } = await setup(toolAgent());
    const events = runner.run({ userId: USER, sessionId: SESSION, newMessage: userContent('hi') });
    expect(await events.return(undefined)).toEqual({ value: undefined, done: true });
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect((await session()).events).toHaveLength(0);
  });

  it('next() calls made without waiting get the events in order, as awaited ones do', async () => {
    const { runner, run } = await setup(toolAgent());
    const events = runner.run({ userId: USER, sessionId: SESSION, newMessage: userContent('hi') });
    const results = await Promise.all([events.next(), events.next(), events.next(), events.next()]);
    expect(results.map((result) => result.done)).toEqual([false, false, false, true]);
    const texts = results.map((result) => (result.value as Event | undefined)?.author);
    expect(texts).toEqual(['agent', 'agent', 'agent', undefined]);
    // The run left the session's turn: the next run proceeds and sees the stored events.
    const second = await run('again');
    expect(second.length).toBeGreaterThan(0);
  });

  it('return() after an event ends the run like break: afterRun sees what was handed out, the turn is left', async () => {
    const recorder = new Recorder();
    const { runner, run, session } = await setup(toolAgent(), { plugins: [recorder] });
    const events = runner.run({ userId: USER, sessionId: SESSION, newMessage: userContent('hi') });
    const first = await events.next();
    expect(first.done).toBe(false);
    expect(await events.return(undefined)).toEqual({ value: undefined, done: true });
    expect(await events.next()).toEqual({ value: undefined, done: true });
    expect(recorder.afterRuns).toEqual([[first.value]]);
    // Stored: the user's message and the one event handed out.
    expect((await session()).events).toHaveLength(2);
    await run('again');
    expect(recorder.afterRuns).toHaveLength(2);
  });

  it('throw() after an event fails the run: onRunError sees the error, which rejects the call', async () => {
    const recorder = new Recorder();
    const { runner, run } = await setup(toolAgent(), { plugins: [recorder] });
    const events = runner.run({ userId: USER, sessionId: SESSION, newMessage: userContent('hi') });
    await events.next();
    const error = new Error('stop');
    await expect(events.throw(error)).rejects.toBe(error);
    expect(recorder.errors).toEqual([error]);
    expect(recorder.afterRuns).toEqual([]);
    expect(await events.next()).toEqual({ value: undefined, done: true });
    await run('again');
    expect(recorder.afterRuns).toHaveLength(1);
  });

  it('a failed start rejects the first next() and the iterator is done', async () => {
    const { runner } = await setup(toolAgent());
    const events = runner.run({ userId: USER, sessionId: SESSION, newMessage: { parts: [] } });
    await expect(events.next()).rejects.toThrow('newMessage must have at least one part.');
    expect(await events.next()).toEqual({ value: undefined, done: true });
  });

  it('is its own async iterator, tagged as an async generator', async () => {
    const { runner } = await setup(toolAgent());
    const events = runner.run({ userId: USER, sessionId: SESSION, newMessage: userContent('hi') });
    expect(events[Symbol.asyncIterator]()).toBe(events);
    expect(Object.prototype.toString.call(events)).toBe('[object AsyncGenerator]');
    await events.return(undefined);
  });
});
