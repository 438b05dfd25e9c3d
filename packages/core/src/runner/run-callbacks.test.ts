import { describe, expect, it } from 'vitest';

import { collect, setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { SequentialAgent } from '../agents/sequential-agent';
import type { RunCallbacks } from '../callbacks/types';
import { getFunctionResponses, getText, modelContent, userContent } from '../content';
import { PluginError } from '../errors/plugin-error';
import { BasePlugin } from '../plugins/base-plugin';
import { RUN_CALLBACKS_PLUGIN_NAME } from '../plugins/run-callbacks-plugin';
import { InMemorySessionService } from '../sessions/in-memory-session-service';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { AgentTool } from '../agents/agent-tool';
import { FunctionTool } from '../tools/function-tool';
import { Runner } from './runner';

const add = new FunctionTool({
  name: 'add',
  description: 'add',
  execute: (args) => ({ sum: Number(args.a) + Number(args.b) }),
});

/** A plugin recording, in `log`, each hook it sees as `plugin:<hook>`. */
class LogPlugin extends BasePlugin {
  constructor(private readonly log: string[]) {
    super('log');
  }
  override beforeAgent() {
    this.log.push('plugin:beforeAgent');
  }
  override beforeModel() {
    this.log.push('plugin:beforeModel');
  }
  override afterModel() {
    this.log.push('plugin:afterModel');
  }
  override beforeTool() {
    this.log.push('plugin:beforeTool');
  }
  override afterTool() {
    this.log.push('plugin:afterTool');
  }
  override afterAgent() {
    this.log.push('plugin:afterAgent');
  }
}

/** Run callbacks recording, in `log`, each hook as `run:<hook>`, returning nothing. */
function loggingCallbacks(log: string[]): RunCallbacks {
  return {
    beforeAgent: () => void log.push('run:beforeAgent'),
    afterAgent: () => void log.push('run:afterAgent'),
    beforeModel: () => void log.push('run:beforeModel'),
    afterModel: () => void log.push('run:afterModel'),
    beforeTool: () => void log.push('run:beforeTool'),
    afterTool: () => void log.push('run:afterTool'),
  };
}

describe('Runner.run callbacks', () => {
  it('run after the plugins and before the agent callbacks, at every hook', async () => {
    const log: string[] = [];
    const agent = new LlmAgent({
      name: 'calc',
      model: new FakeModel([fakeFunctionCall('add', { a: 1, b: 2 }), 'three']),
      tools: [add],
      beforeAgentCallback: () => void log.push('agent:beforeAgent'),
      afterAgentCallback: () => void log.push('agent:afterAgent'),
      beforeModelCallback: () => void log.push('agent:beforeModel'),
      afterModelCallback: () => void log.push('agent:afterModel'),
      beforeToolCallback: () => void log.push('agent:beforeTool'),
      afterToolCallback: () => void log.push('agent:afterTool'),
    });
    const { runner } = await setup(agent, { plugins: [new LogPlugin(log)] });
    await collect(
      runner.run({
        userId: 'u1',
        sessionId: 's1',
        newMessage: userContent('1+2?'),
        callbacks: loggingCallbacks(log),
      }),
    );
    const at = (hook: string) => log.filter((line) => line.endsWith(`:${hook}`));
    for (const hook of ['beforeAgent', 'beforeModel', 'beforeTool', 'afterTool', 'afterAgent']) {
      expect(at(hook).slice(0, 3)).toEqual([`plugin:${hook}`, `run:${hook}`, `agent:${hook}`]);
    }
    // Two model calls: each saw plugin, run, agent in that order.
    expect(at('beforeModel')).toEqual([
      'plugin:beforeModel',
      'run:beforeModel',
      'agent:beforeModel',
      'plugin:beforeModel',
      'run:beforeModel',
      'agent:beforeModel',
    ]);
  });

  it('apply to that run only', async () => {
    const log: string[] = [];
    const { runner } = await setup(
      new LlmAgent({ name: 'agent', model: new FakeModel(['one', 'two']) }),
    );
    const run = (text: string, callbacks?: RunCallbacks) =>
      collect(
        runner.run({
          userId: 'u1',
          sessionId: 's1',
          newMessage: userContent(text),
          ...(callbacks ? { callbacks } : {}),
        }),
      );
    await run('first', loggingCallbacks(log));
    const afterFirst = log.length;
    await run('second');
    expect(afterFirst).toBeGreaterThan(0);
    expect(log).toHaveLength(afterFirst);
  });

  it('short-circuit like agent callbacks: a value skips the agent callback and the tool', async () => {
    let toolRuns = 0;
    const guarded = new FunctionTool({
      name: 'delete_account',
      description: 'Delete an account.',
      execute: () => {
        toolRuns++;
        return { deleted: true };
      },
    });
    const agentCallbackCalls: string[] = [];
    const model = new FakeModel([fakeFunctionCall('delete_account', {}), 'done']);
    const agent = new LlmAgent({
      name: 'admin',
      model,
      tools: [guarded],
      beforeToolCallback: ({ tool }) => void agentCallbackCalls.push(tool.name),
    });
    const { runner } = await setup(agent);
    // A per-tenant guard: this tenant may not delete accounts.
    const events = await collect(
      runner.run({
        userId: 'u1',
        sessionId: 's1',
        newMessage: userContent('delete it'),
        callbacks: {
          beforeTool: ({ tool }) =>
            tool.name === 'delete_account' ? { error: 'not allowed for tenant acme' } : undefined,
        },
      }),
    );
    expect(toolRuns).toBe(0);
    expect(agentCallbackCalls).toEqual([]);
    const response = events.flatMap((event) => getFunctionResponses(event.content))[0];
    expect(response?.response).toEqual({ error: 'not allowed for tenant acme' });
  });

  it('yield to a plugin that already answered', async () => {
    class Cache extends BasePlugin {
      override beforeModel() {
        return { content: modelContent('cached') };
      }
    }
    let runCallbackCalls = 0;
    const model = new FakeModel({ strict: true });
    const { runner } = await setup(new LlmAgent({ name: 'agent', model }), {
      plugins: [new Cache('cache')],
    });
    const events = await collect(
      runner.run({
        userId: 'u1',
        sessionId: 's1',
        newMessage: userContent('hi'),
        callbacks: { beforeModel: () => void runCallbackCalls++ },
      }),
    );
    expect(events.map((event) => getText(event.content))).toEqual(['cached']);
    expect(runCallbackCalls).toBe(0);
    expect(model.callCount).toBe(0);
  });

  it('reach sub-agents, workflow agents and agents called through AgentTool', async () => {
    const seen: string[] = [];
    const helper = new LlmAgent({ name: 'helper', model: new FakeModel(['helped']) });
    const caller = new LlmAgent({
      name: 'caller',
      model: new FakeModel([fakeFunctionCall('helper', { request: 'help' }), 'thanks']),
      tools: [new AgentTool(helper)],
    });
    const closing = new LlmAgent({ name: 'closing', model: new FakeModel(['bye']) });
    const pipeline = new SequentialAgent({ name: 'pipeline', subAgents: [caller, closing] });
    const { runner } = await setup(pipeline);
    await collect(
      runner.run({
        userId: 'u1',
        sessionId: 's1',
        newMessage: userContent('go'),
        callbacks: {
          beforeAgent: (context) => void seen.push(`agent ${context.agentName}`),
          beforeModel: ({ context }) => void seen.push(`model ${context.agentName}`),
        },
      }),
    );
    expect(seen).toEqual([
      'agent pipeline',
      'agent caller',
      'model caller',
      'agent helper',
      'model helper',
      'model caller',
      'agent closing',
      'model closing',
    ]);
  });

  it('never see another run: concurrent runs each get their own callbacks', async () => {
    const sessionService = new InMemorySessionService();
    // Both runs wait for each other inside the model, so they truly overlap.
    let arrived = 0;
    let release!: () => void;
    const bothThere = new Promise<void>((resolve) => (release = resolve));
    const model = new FakeModel({
      responses: async (request) => {
        if (++arrived === 2) release();
        await bothThere;
        return `echo ${getText(request.contents.at(-1))}`;
      },
    });
    const runner = new Runner({
      appName: 'app',
      agent: new LlmAgent({ name: 'agent', model }),
      sessionService,
      autoCreateSession: true,
    });
    const observe = (tenant: string, seen: string[]): RunCallbacks => ({
      beforeModel: ({ context }) => void seen.push(`${tenant} before ${context.sessionId}`),
      afterModel: ({ context, response }) =>
        void seen.push(`${tenant} after ${context.sessionId} ${getText(response.content)}`),
    });
    const seenA: string[] = [];
    const seenB: string[] = [];
    const [a, b] = await Promise.all([
      collect(
        runner.run({
          userId: 'u',
          sessionId: 'sa',
          newMessage: userContent('from a'),
          callbacks: observe('A', seenA),
        }),
      ),
      collect(
        runner.run({
          userId: 'u',
          sessionId: 'sb',
          newMessage: userContent('from b'),
          callbacks: observe('B', seenB),
        }),
      ),
    ]);
    expect(getText(a.at(-1)?.content)).toBe('echo from a');
    expect(getText(b.at(-1)?.content)).toBe('echo from b');
    expect(seenA).toEqual(['A before sa', 'A after sa echo from a']);
    expect(seenB).toEqual(['B before sb', 'B after sb echo from b']);
  });

  it('report a throwing callback as a PluginError naming the run callbacks and the hook', async () => {
    const { runner } = await setup(new LlmAgent({ name: 'agent', model: new FakeModel(['x']) }));
    const error = await collect(
      runner.run({
        userId: 'u1',
        sessionId: 's1',
        newMessage: userContent('hi'),
        callbacks: {
          afterModel: () => {
            throw new TypeError('audit log unreachable');
          },
        },
      }),
    ).catch((caught: unknown) => caught);
    expect(PluginError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      pluginName: RUN_CALLBACKS_PLUGIN_NAME,
      hook: 'afterModel',
      message: expect.stringContaining('audit log unreachable'),
    });
  });

  it('can change the request and replace the response', async () => {
    const model = new FakeModel(['raw answer']);
    const { runner } = await setup(new LlmAgent({ name: 'agent', model }));
    const events = await collect(
      runner.run({
        userId: 'u1',
        sessionId: 's1',
        newMessage: userContent('hi'),
        callbacks: {
          beforeModel: ({ request }) => {
            request.config = { ...request.config, temperature: 0 };
          },
          afterModel: ({ response }) => ({
            ...response,
            content: modelContent(getText(response.content).toUpperCase()),
          }),
        },
      }),
    );
    expect(model.requests[0]?.config?.temperature).toBe(0);
    expect(events.map((event) => getText(event.content))).toEqual(['RAW ANSWER']);
  });
});
