import { describe, expect, it } from 'vitest';

import { collect } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getText, modelContent, userContent, type Content } from '../content';
import { PluginError } from '../errors/plugin-error';
import type { Event } from '../events';
import {
  BasePlugin,
  type AfterRunHookArgs,
  type AgentHookArgs,
  type PluginState,
} from '../plugins/base-plugin';
import { Runner } from '../runner/runner';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { FakeModel } from '../testing/fake-model';
import { App, isApp } from './app';

/** Counts its `init` calls (slowly, so that concurrent runs overlap it) and the agents it sees. */
class Audit extends BasePlugin {
  inits = 0;
  readonly agents: string[] = [];
  ready = false;
  constructor(
    name = 'audit',
    private readonly failInits = 0,
  ) {
    super(name);
  }
  override async init() {
    this.inits++;
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (this.inits <= this.failInits) throw new Error('audit store unreachable');
    this.ready = true;
  }
  override beforeAgent({ agent }: AgentHookArgs) {
    if (!this.ready) throw new Error('hook before init finished');
    this.agents.push(agent.name);
  }
}

function makeApp(plugins: BasePlugin[], answers: string[] = ['hello']) {
  const agent = new LlmAgent({ name: 'assistant', model: new FakeModel(answers) });
  return new App({ name: 'support', agent, plugins });
}

const message = (runner: Runner, sessionId = 's1', text = 'hi') =>
  collect(runner.run({ userId: 'u1', sessionId, newMessage: userContent(text) }));

describe('App', () => {
  it('applies its plugins to every runner built from it, before the runner’s own', async () => {
    const order: string[] = [];
    class Named extends BasePlugin {
      override beforeModel() {
        order.push(this.name);
      }
    }
    const app = makeApp([new Named('app_first'), new Named('app_second')], ['a', 'b']);
    const sessionService = new InMemorySessionService();
    const chat = new Runner({ app, sessionService, autoCreateSession: true });
    const worker = new Runner({
      app,
      sessionService,
      autoCreateSession: true,
      plugins: [new Named('worker_only')],
    });
    expect(chat.appName).toBe('support');
    expect(chat.agent).toBe(app.agent);
    await message(chat);
    await message(worker, 's2');
    expect(order).toEqual(['app_first', 'app_second', 'app_first', 'app_second', 'worker_only']);
  });

  it('initialises each plugin once for all its runners and concurrent runs, before any hook', async () => {
    const audit = new Audit();
    const app = makeApp([audit], ['1', '2', '3', '4']);
    const sessionService = new InMemorySessionService();
    const runners = [1, 2].map(() => new Runner({ app, sessionService, autoCreateSession: true }));
    await Promise.all([
      message(runners[0]!, 'a'),
      message(runners[0]!, 'b'),
      message(runners[1]!, 'c'),
    ]);
    await message(runners[1]!, 'd');
    expect(audit.inits).toBe(1);
    expect(audit.agents).toEqual(['assistant', 'assistant', 'assistant', 'assistant']);
  });

  it('fails a run whose plugin init failed with a PluginError, and tries again on the next run', async () => {
    const audit = new Audit('audit', 1);
    const runner = new Runner({ app: makeApp([audit], ['ok']), autoCreateSession: true });
    const error = await message(runner).catch((caught: unknown) => caught);
    expect(PluginError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ pluginName: 'audit', hook: 'init' });
    const events = await message(runner);
    expect(audit.inits).toBe(2);
    expect(events.map((event) => getText(event.content))).toEqual(['ok']);
  });

  it('initialize() runs the init up front, once', async () => {
    const audit = new Audit();
    const app = makeApp([audit]);
    await app.initialize();
    await app.initialize();
    await message(new Runner({ app, autoCreateSession: true }));
    expect(audit.inits).toBe(1);
  });

  it('refuses a runner plugin named like an app plugin', () => {
    const app = makeApp([new Audit('audit')]);
    expect(() => new Runner({ app, plugins: [new Audit('audit')] })).toThrow(PluginError);
  });

  it('stores sessions under appName when the runner is given one', async () => {
    const sessionService = new InMemorySessionService();
    const runner = new Runner({
      app: makeApp([]),
      appName: 'support_v2',
      sessionService,
      autoCreateSession: true,
    });
    await message(runner);
    const stored = await sessionService.getSession({
      appName: 'support_v2',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(stored?.events).toHaveLength(2);
    expect(isApp(runner)).toBe(false);
    expect(isApp(makeApp([]))).toBe(true);
  });
});

describe('afterRun transforms the result', () => {
  /** Appends a signature to the answer as transformed so far. */
  class Sign extends BasePlugin {
    readonly seen: { events: string[]; replacement: string | undefined }[] = [];
    constructor(
      name: string,
      private readonly signature: string,
    ) {
      super(name);
    }
    override afterRun({ events, replacement }: AfterRunHookArgs): Content {
      this.seen.push({
        events: events.map((event) => getText(event.content)),
        replacement: replacement && getText(replacement),
      });
      const answer = replacement ?? events.at(-1)?.content;
      return modelContent(`${getText(answer)} ${this.signature}`);
    }
  }

  it('each afterRun sees the result as transformed so far; the last one is stored and yielded', async () => {
    const first = new Sign('first', '-- support');
    const second = new Sign('second', '(ref 42)');
    const sessionService = new InMemorySessionService();
    const runner = new Runner({
      app: makeApp([first, second], ['Your order shipped.']),
      sessionService,
      autoCreateSession: true,
    });
    const events = await message(runner);
    expect(events.map((event) => [event.author, getText(event.content)])).toEqual([
      ['assistant', 'Your order shipped.'],
      ['assistant', 'Your order shipped. -- support (ref 42)'],
    ]);
    expect(first.seen).toEqual([{ events: ['Your order shipped.'], replacement: undefined }]);
    expect(second.seen).toEqual([
      { events: ['Your order shipped.'], replacement: 'Your order shipped. -- support' },
    ]);
    const stored = await sessionService.getSession({
      appName: 'support',
      userId: 'u1',
      sessionId: 's1',
    });
    expect(stored?.events.map((event: Event) => getText(event.content))).toEqual([
      'hi',
      'Your order shipped.',
      'Your order shipped. -- support (ref 42)',
    ]);
  });

  it('a plugin returning nothing leaves the result as it is', async () => {
    const calls: number[] = [];
    class Observe extends BasePlugin {
      override afterRun({ events }: AfterRunHookArgs) {
        calls.push(events.length);
      }
    }
    const runner = new Runner({ app: makeApp([new Observe('observe')]), autoCreateSession: true });
    const events = await message(runner);
    expect(events.map((event) => getText(event.content))).toEqual(['hello']);
    expect(calls).toEqual([1]);
  });

  it('beforeRun halts with a result that afterRun then sees', async () => {
    class Closed extends BasePlugin {
      override beforeRun() {
        return modelContent('We are closed.');
      }
    }
    const sign = new Sign('sign', 'Back at 9.');
    const model = new FakeModel({ strict: true });
    const runner = new Runner({
      app: new App({
        name: 'support',
        agent: new LlmAgent({ name: 'assistant', model }),
        plugins: [new Closed('closed'), sign],
      }),
      autoCreateSession: true,
    });
    const events = await message(runner);
    expect(model.callCount).toBe(0);
    expect(events.map((event) => getText(event.content))).toEqual([
      'We are closed.',
      'We are closed. Back at 9.',
    ]);
  });

  it('after an abort the hooks run but nothing more is yielded', async () => {
    const sign = new Sign('sign', 'never shown');
    const runner = new Runner({ app: makeApp([sign], ['one']), autoCreateSession: true });
    const controller = new AbortController();
    const events: Event[] = [];
    for await (const event of runner.run({
      userId: 'u1',
      sessionId: 's1',
      newMessage: userContent('hi'),
      signal: controller.signal,
    })) {
      events.push(event);
      controller.abort();
    }
    expect(events.map((event) => getText(event.content))).toEqual(['one']);
    expect(sign.seen).toHaveLength(1);
  });

  it('keeps per-invocation plugin state across hooks of one run', async () => {
    class Timer extends BasePlugin {
      override beforeRun(_args: unknown, state: PluginState) {
        state.set('started', 'yes');
      }
      override afterRun(_args: AfterRunHookArgs, state: PluginState) {
        return modelContent(`started=${String(state.get('started'))}`);
      }
    }
    const runner = new Runner({ app: makeApp([new Timer('timer')]), autoCreateSession: true });
    const events = await message(runner);
    expect(getText(events.at(-1)?.content)).toBe('started=yes');
  });
});
