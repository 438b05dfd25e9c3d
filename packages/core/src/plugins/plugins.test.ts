import { describe, expect, it } from 'vitest';

import { setup } from '../../test/helpers';
import { BaseAgent } from '../agents/base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { LlmAgent } from '../agents/llm-agent';
import { getFunctionResponses, getText, modelContent } from '../content';
import { PluginError } from '../errors/plugin-error';
import type { Event } from '../events';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall, fakeText } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { BasePlugin, type PluginState } from './base-plugin';
import { LoggingPlugin } from './logging-plugin';
import { PluginManager } from './plugin-manager';

const add = new FunctionTool({
  name: 'add',
  description: 'add',
  execute: (args) => ({ sum: Number(args.a) + Number(args.b) }),
});

/** Records every hook it sees, returns nothing. */
class Recorder extends BasePlugin {
  readonly seen: string[] = [];
  constructor(name = 'recorder') {
    super(name);
  }
  override onUserMessage() {
    this.seen.push('onUserMessage');
    return undefined;
  }
  override beforeRun() {
    this.seen.push('beforeRun');
    return undefined;
  }
  override afterRun() {
    this.seen.push('afterRun');
  }
  override onEvent() {
    this.seen.push('onEvent');
    return undefined;
  }
  override beforeAgent() {
    this.seen.push('beforeAgent');
    return undefined;
  }
  override afterAgent() {
    this.seen.push('afterAgent');
    return undefined;
  }
  override onAgentError() {
    this.seen.push('onAgentError');
    return undefined;
  }
  override beforeModel() {
    this.seen.push('beforeModel');
    return undefined;
  }
  override afterModel() {
    this.seen.push('afterModel');
    return undefined;
  }
  override onModelError() {
    this.seen.push('onModelError');
    return undefined;
  }
  override beforeTool() {
    this.seen.push('beforeTool');
    return undefined;
  }
  override afterTool() {
    this.seen.push('afterTool');
    return undefined;
  }
  override onToolError() {
    this.seen.push('onToolError');
    return undefined;
  }
  override onRunError() {
    this.seen.push('onRunError');
  }
  override close() {
    this.seen.push('close');
  }
}

describe('plugin hooks', () => {
  it('invokes every run, agent, model and tool hook in lifecycle order', async () => {
    const recorder = new Recorder();
    const model = new FakeModel([fakeFunctionCall('add', { a: 1, b: 2 }), 'three']);
    const { run, runner } = await setup(new LlmAgent({ name: 'agent', model, tools: [add] }), {
      plugins: [recorder],
    });
    await run('1+2?');
    expect(recorder.seen).toEqual([
      'onUserMessage',
      'beforeRun',
      'beforeAgent',
      'beforeModel',
      'afterModel',
      'onEvent',
      'beforeTool',
      'afterTool',
      'onEvent',
      'beforeModel',
      'afterModel',
      'onEvent',
      'afterAgent',
      'afterRun',
    ]);
    await runner.close();
    expect(recorder.seen.at(-1)).toBe('close');
  });

  it('invokes the error hooks: onModelError, onToolError, onAgentError and onRunError', async () => {
    const recorder = new Recorder();
    const failing = new FunctionTool({
      name: 'fail',
      description: 'f',
      execute: () => {
        throw new TypeError('tool broke');
      },
    });
    const model = new FakeModel([fakeFunctionCall('fail'), new TypeError('model broke')]);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [failing] }), {
      plugins: [recorder],
    });
    await run('go');
    expect(recorder.seen).toContain('onToolError');
    expect(recorder.seen).toContain('onModelError');

    class Crashing extends BaseAgent {
      // eslint-disable-next-line require-yield
      protected async *runImpl(): AsyncGenerator<Event, void> {
        throw new TypeError('agent crashed');
      }
    }
    const second = new Recorder();
    const crashing = await setup(new Crashing({ name: 'crashing' }), { plugins: [second] });
    await expect(crashing.run('go')).rejects.toThrow('agent crashed');
    expect(second.seen).toEqual([
      'onUserMessage',
      'beforeRun',
      'beforeAgent',
      'onAgentError',
      'onRunError',
    ]);
  });

  it('runs plugins before agent callbacks; a plugin value wins and skips the callback', async () => {
    const order: string[] = [];
    class Guard extends BasePlugin {
      constructor() {
        super('guard');
      }
      override beforeModel({ request }: { request: { contents: unknown[] } }) {
        order.push('plugin');
        if (request.contents.length > 1) return fakeText('blocked by plugin');
        return undefined;
      }
    }
    const model = new FakeModel(['model answer']);
    const agent = new LlmAgent({
      name: 'agent',
      model,
      beforeModelCallback: () => {
        order.push('callback');
        return undefined;
      },
    });
    const { run } = await setup(agent, { plugins: [new Guard()] });
    expect(getText((await run('first'))[0]!.content)).toBe('model answer');
    expect(order).toEqual(['plugin', 'callback']);
    order.length = 0;
    expect(getText((await run('second'))[0]!.content)).toBe('blocked by plugin');
    expect(order).toEqual(['plugin']);
    expect(model.callCount).toBe(1);
  });

  it('skips agent and tool callbacks when a plugin answers first', async () => {
    const callbacks: string[] = [];
    class Gate extends BasePlugin {
      override beforeAgent({ agent }: { agent: { name: string } }) {
        return agent.name === 'closed' ? modelContent('closed by plugin') : undefined;
      }
      override beforeTool() {
        return { sum: 'plugin' };
      }
      override afterTool({ result }: { result: Record<string, unknown> }) {
        return { ...result, checked: true };
      }
    }
    const closed = new LlmAgent({
      name: 'closed',
      model: new FakeModel({ strict: true }),
      beforeAgentCallback: () => void callbacks.push('beforeAgent'),
    });
    const first = await setup(closed, { plugins: [new Gate('gate')] });
    expect(getText((await first.run('hi'))[0]!.content)).toBe('closed by plugin');
    const open = new LlmAgent({
      name: 'open',
      model: new FakeModel([fakeFunctionCall('add', { a: 1, b: 1 }), 'ok']),
      tools: [add],
      beforeToolCallback: () => void callbacks.push('beforeTool'),
      afterToolCallback: () => void callbacks.push('afterTool'),
    });
    const second = await setup(open, { plugins: [new Gate('gate')] });
    const events = await second.run('go');
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ sum: 'plugin' });
    expect(callbacks).toEqual([]);
  });

  it('stops at the first plugin returning a value', async () => {
    const calls: string[] = [];
    const make = (name: string, value: unknown) =>
      new (class extends BasePlugin {
        override beforeTool() {
          calls.push(name);
          return value;
        }
      })(name);
    const model = new FakeModel([fakeFunctionCall('add', { a: 1, b: 1 }), 'ok']);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [add] }), {
      plugins: [
        make('first', undefined),
        make('second', { sum: 'from plugin' }),
        make('third', { sum: 'never' }),
      ],
    });
    const events = await run('go');
    expect(calls).toEqual(['first', 'second']);
    expect(getFunctionResponses(events[1]!.content)[0]!.response).toEqual({ sum: 'from plugin' });
  });

  it('short-circuits the run from beforeRun and still calls afterRun', async () => {
    const recorder = new Recorder('after');
    class Maintenance extends BasePlugin {
      override beforeRun() {
        return modelContent('Down for maintenance.');
      }
    }
    const model = new FakeModel({ strict: true });
    const { run, session } = await setup(new LlmAgent({ name: 'agent', model }), {
      plugins: [new Maintenance('maintenance'), recorder],
    });
    const events = await run('hi');
    expect(events.map((e) => [e.author, getText(e.content)])).toEqual([
      ['agent', 'Down for maintenance.'],
    ]);
    expect(model.callCount).toBe(0);
    expect((await session()).events).toHaveLength(2);
    expect(recorder.seen).toEqual(['onUserMessage', 'onEvent', 'afterRun']);
  });

  it('lets onUserMessage replace the message and onEvent replace events before they are stored', async () => {
    class Redact extends BasePlugin {
      override onUserMessage() {
        return { role: 'user', parts: [{ text: 'my card is [redacted]' }] };
      }
      override onEvent({ event }: { event: Event }) {
        if (!event.content) return undefined;
        return { ...event, content: modelContent(getText(event.content).toUpperCase()) };
      }
    }
    const model = new FakeModel(['ok then']);
    const { run, session } = await setup(new LlmAgent({ name: 'agent', model }), {
      plugins: [new Redact('redact')],
    });
    const events = await run('my card is 4111');
    expect(getText(model.requests[0]!.contents[0])).toBe('my card is [redacted]');
    expect(getText(events[0]!.content)).toBe('OK THEN');
    const stored = (await session()).events;
    expect(getText(stored[0]!.content)).toBe('my card is [redacted]');
    expect(getText(stored[1]!.content)).toBe('OK THEN');
    expect(stored[1]!.id).toBe(events[0]!.id);
  });

  it('lets onAgentError recover with content', async () => {
    class Crashing extends BaseAgent {
      // eslint-disable-next-line require-yield
      protected async *runImpl(): AsyncGenerator<Event, void> {
        throw new TypeError('boom');
      }
    }
    class Recover extends BasePlugin {
      override onAgentError() {
        return modelContent('Something went wrong, sorry.');
      }
    }
    const { run } = await setup(new Crashing({ name: 'crashing' }), {
      plugins: [new Recover('recover')],
    });
    const events = await run('hi');
    expect(events.map((e) => getText(e.content))).toEqual(['Something went wrong, sorry.']);
  });

  it('reports a throwing plugin as a PluginError naming plugin and hook', async () => {
    class Broken extends BasePlugin {
      override beforeModel(): undefined {
        throw new TypeError('bad config');
      }
    }
    const recorder = new Recorder();
    const { run } = await setup(new LlmAgent({ name: 'agent', model: new FakeModel(['x']) }), {
      plugins: [new Broken('broken'), recorder],
    });
    const error = await run('hi').catch((e: unknown) => e);
    expect(PluginError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      pluginName: 'broken',
      hook: 'beforeModel',
      message: expect.stringContaining('bad config'),
    });
    expect(recorder.seen).toContain('onRunError');
  });

  it('rejects duplicate plugin names', () => {
    expect(() => new PluginManager([new Recorder('same'), new Recorder('same')])).toThrow(
      PluginError,
    );
  });

  it('gives each plugin a fresh state per invocation, shared by its hooks', async () => {
    const observed: unknown[] = [];
    class Counter extends BasePlugin {
      override beforeModel(_args: unknown, state: PluginState) {
        state.set('models', ((state.get('models') as number) ?? 0) + 1);
        return undefined;
      }
      override afterRun(_args: unknown, state: PluginState) {
        observed.push(state.get('models'));
      }
    }
    const model = new FakeModel([fakeFunctionCall('add', { a: 1, b: 1 }), 'two', 'again']);
    const { run } = await setup(new LlmAgent({ name: 'agent', model, tools: [add] }), {
      plugins: [new Counter('counter')],
    });
    await run('1+1');
    await run('again');
    expect(observed).toEqual([2, 1]);
  });

  it('costs nothing for hooks no plugin implements', () => {
    const manager = new PluginManager([new (class extends BasePlugin {})('empty')]);
    expect(manager.has('beforeModel')).toBe(false);
    expect(manager.beforeModel({} as InvocationContext, {} as never)).toBeUndefined();
  });
});

describe('LoggingPlugin', () => {
  it('writes concise lines for the run, model, tools and events to its sink', async () => {
    const lines: string[] = [];
    const model = new FakeModel([fakeFunctionCall('add', { a: 2, b: 3 }), 'five']);
    const { run } = await setup(new LlmAgent({ name: 'calc', model, tools: [add] }), {
      plugins: [new LoggingPlugin({ sink: (line) => lines.push(line) })],
    });
    await run('2+3?');
    expect(lines.every((line) => line.startsWith('[adk] '))).toBe(true);
    const text = lines.join('\n');
    expect(text).toContain('user u1: 2+3?');
    expect(text).toContain('agent calc start');
    expect(text).toContain('tool add({"a":2,"b":3})');
    expect(text).toContain('tool add -> {"sum":5}');
    expect(text).toContain('event calc: "five"');
    expect(text).toMatch(/run e-.* end in \d+ ms, 2 model call\(s\)/);
  });
});
