import { afterEach, describe, expect, it, vi } from 'vitest';

import { collect, setup } from '../../test/helpers';
import { getText, userContent } from '../content';
import { channelNames, subscribe, type ChannelKey } from '../diagnostics/channels';
import type { AgentInfo } from '../context/invocation';
import type { Event } from '../events';
import { BasePlugin } from '../plugins/base-plugin';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { BaseAgent } from './base-agent';
import type { InvocationContext } from '../invocation/invocation-context';
import { LlmAgent, type LlmAgentOptions } from './llm-agent';

/**
 * `LlmAgent` runs through `BaseAgent.run` (the agent's lifecycle: span, hooks, error recovery)
 * around its flow: each scenario below checks the hooks, events, diagnostics and errors of one
 * lifecycle case. A subclass overriding `runImpl` runs the same way.
 */
class ThroughRunImpl extends LlmAgent {
  protected override runImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    return super.runImpl(ctx);
  }
}

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
  vi.restoreAllMocks();
});

/** Every diagnostics message, as `channel agent`, with span ids numbered in order of appearance. */
function recordDiagnostics(): string[] {
  const lines: string[] = [];
  const spans = new Map<string, number>();
  const span = (id: unknown) =>
    typeof id === 'string' ? (spans.get(id) ?? spans.set(id, spans.size).get(id)) : '-';
  for (const key of Object.keys(channelNames) as ChannelKey[]) {
    stops.push(
      subscribe(key, (message) => {
        const fields = message as {
          spanId?: string;
          parentSpanId?: string;
          agentName?: string;
          error?: unknown;
        };
        const error = fields.error instanceof Error ? fields.error.message : fields.error;
        lines.push(
          `${key} span=${span(fields.spanId)} parent=${span(fields.parentSpanId)} agent=${fields.agentName ?? '-'} error=${String(error ?? '-')}`,
        );
      }),
    );
  }
  return lines;
}

class RecordingPlugin extends BasePlugin {
  constructor(
    readonly log: string[],
    readonly recover?: string,
  ) {
    super('recording');
  }
  override beforeAgent({ agent }: { agent: AgentInfo }) {
    this.log.push(`plugin.beforeAgent ${agent.name}`);
    return undefined;
  }
  override afterAgent({ agent }: { agent: AgentInfo }) {
    this.log.push(`plugin.afterAgent ${agent.name}`);
    return undefined;
  }
  override onAgentError({ agent, error }: { agent: AgentInfo; error: unknown }) {
    this.log.push(`plugin.onAgentError ${agent.name} ${(error as Error).message}`);
    return this.recover ? userContent(this.recover) : undefined;
  }
}

interface Trace {
  events: unknown[];
  hooks: string[];
  diagnostics: string[];
  thrown: string | undefined;
}

async function runScenario(
  make: (options: LlmAgentOptions) => LlmAgent,
  agentOptions: (hooks: string[], abort: AbortController) => Partial<LlmAgentOptions>,
  extra: { recover?: string; stopAfter?: number; runConfig?: { maxLlmCalls: number } } = {},
): Promise<Trace> {
  const hooks: string[] = [];
  const abort = new AbortController();
  const agent = make({ name: 'helper', ...agentOptions(hooks, abort) });
  const { runner } = await setup(agent, { plugins: [new RecordingPlugin(hooks, extra.recover)] });
  const diagnostics = recordDiagnostics();
  const events: Event[] = [];
  let thrown: string | undefined;
  try {
    for await (const event of runner.run({
      userId: 'u1',
      sessionId: 's1',
      newMessage: userContent('Weather in Paris?'),
      signal: abort.signal,
      runConfig: extra.runConfig,
    })) {
      events.push(event);
      if (events.length === extra.stopAfter) break;
    }
  } catch (error) {
    thrown = (error as Error).message;
  }
  while (stops.length) stops.pop()!();
  return {
    events: events.map((event) => ({
      author: event.author,
      text: getText(event.content),
      calls: event.content?.parts.map(
        (part) => part.functionCall?.name ?? part.functionResponse?.name,
      ),
      errorCode: event.errorCode,
      stateDelta: event.actions.stateDelta,
    })),
    hooks,
    diagnostics,
    thrown,
  };
}

const weather = (abort?: AbortController) =>
  new FunctionTool({
    name: 'get_weather',
    description: 'Weather of a city.',
    execute: () => {
      abort?.abort();
      return { forecast: 'sunny' };
    },
  });
const model = () => new FakeModel({ responses: [fakeFunctionCall('get_weather'), 'Sunny.'] });

/** Agent options for each scenario. */
const scenarios: Record<
  string,
  {
    options: (hooks: string[], abort: AbortController) => Partial<LlmAgentOptions>;
    extra?: { recover?: string; stopAfter?: number; runConfig?: { maxLlmCalls: number } };
    check: (trace: Trace) => void;
  }
> = {
  'a tool call and an answer, with hooks that write state': {
    check: ({ hooks, events, thrown }) => {
      expect(hooks).toEqual([
        'plugin.beforeAgent helper',
        'beforeAgentCallback',
        'plugin.afterAgent helper',
        'afterAgentCallback',
      ]);
      expect(events[0]).toMatchObject({ author: 'helper', stateDelta: { before: 1 } });
      expect(events.map((event) => (event as { text: string }).text)).toContain('Sunny.');
      expect(events.at(-1)).toMatchObject({ author: 'helper', stateDelta: { after: 2 } });
      expect(thrown).toBeUndefined();
    },

    options: (hooks) => ({
      model: model(),
      tools: [weather()],
      beforeAgentCallback: (context) => {
        hooks.push('beforeAgentCallback');
        context.state.set('before', 1);
        return undefined;
      },
      afterAgentCallback: (context) => {
        hooks.push('afterAgentCallback');
        context.state.set('after', 2);
        return undefined;
      },
    }),
  },
  'a before callback answering instead of the agent': {
    check: ({ hooks, events }) => {
      expect(hooks).toEqual(['plugin.beforeAgent helper', 'beforeAgentCallback']);
      expect(events).toEqual([expect.objectContaining({ author: 'helper', text: 'Skipped.' })]);
    },

    options: (hooks) => ({
      model: model(),
      beforeAgentCallback: () => {
        hooks.push('beforeAgentCallback');
        return userContent('Skipped.');
      },
      afterAgentCallback: () => {
        hooks.push('afterAgentCallback');
        return undefined;
      },
    }),
  },
  'an after callback adding an answer': {
    check: ({ events }) => {
      expect(events.slice(-2)).toEqual([
        expect.objectContaining({ text: 'Sunny.' }),
        expect.objectContaining({ author: 'helper', text: 'And one more thing.' }),
      ]);
    },

    options: () => ({
      model: model(),
      tools: [weather()],
      afterAgentCallback: () => userContent('And one more thing.'),
    }),
  },
  'an error recovered by onAgentError': {
    check: ({ hooks, events, diagnostics, thrown }) => {
      expect(hooks).toContain('plugin.onAgentError helper boom');
      expect(events.at(-1)).toMatchObject({ author: 'helper', text: 'Recovered.' });
      expect(thrown).toBeUndefined();
      expect(diagnostics.some((line) => line.startsWith('agentError'))).toBe(true);
      expect(diagnostics.some((line) => line.startsWith('agentEnd'))).toBe(false);
    },

    options: () => ({
      model: model(),
      beforeModelCallback: () => {
        throw new Error('boom');
      },
    }),
    extra: { recover: 'Recovered.' },
  },
  'an error nobody recovers': {
    check: ({ hooks, diagnostics, thrown }) => {
      expect(thrown).toBe('boom');
      expect(hooks).toContain('plugin.onAgentError helper boom');
      expect(diagnostics.some((line) => line.startsWith('agentError'))).toBe(true);
    },

    options: () => ({
      model: model(),
      beforeModelCallback: () => {
        throw new Error('boom');
      },
    }),
  },
  'an abort during the tool call': {
    check: ({ hooks, events, diagnostics }) => {
      expect(events.map((event) => (event as { text: string }).text)).not.toContain('Sunny.');
      expect(hooks).not.toContain('plugin.afterAgent helper');
      expect(diagnostics.filter((line) => line.startsWith('agentEnd'))).toHaveLength(1);
    },

    options: (_hooks, abort) => ({ model: model(), tools: [weather(abort)] }),
  },
  'a consumer that stops after the first event': {
    check: ({ events, diagnostics }) => {
      expect(events).toHaveLength(1);
      // The span opened by the run is closed although the consumer stopped early.
      expect(diagnostics.filter((line) => line.startsWith('agentEnd'))).toHaveLength(1);
    },

    options: () => ({ model: model(), tools: [weather()] }),
    extra: { stopAfter: 1 },
  },
  'the call limit ending the invocation before the after hooks': {
    check: ({ hooks, events }) => {
      expect(hooks).not.toContain('afterAgentCallback');
      expect(events.at(-1)).toMatchObject({ errorCode: 'MAX_LLM_CALLS_EXCEEDED' });
    },

    options: (hooks) => ({
      model: model(),
      tools: [weather()],
      afterAgentCallback: () => {
        hooks.push('afterAgentCallback');
        return undefined;
      },
    }),
    extra: { runConfig: { maxLlmCalls: 1 } },
  },
};

describe('LlmAgent.run', () => {
  for (const [name, scenario] of Object.entries(scenarios)) {
    it(`runs its flow inside the agent lifecycle: ${name}`, async () => {
      const trace = await runScenario(
        (options) => new LlmAgent(options),
        scenario.options,
        scenario.extra,
      );
      expect(trace.diagnostics.some((line) => line.startsWith('agentStart'))).toBe(true);
      scenario.check(trace);
      // A subclass overriding `runImpl` runs the same way.
      const through = await runScenario(
        (options) => new ThroughRunImpl(options),
        scenario.options,
        scenario.extra,
      );
      expect(through).toStrictEqual(trace);
    });
  }

  it('runs a plain LlmAgent through BaseAgent.run', async () => {
    const baseRun = vi.spyOn(BaseAgent.prototype, 'run');
    const agent = new LlmAgent({ name: 'plain', model: model(), tools: [weather()] });
    await collect((await setup(agent)).runner.run(request()));
    expect(baseRun).toHaveBeenCalledTimes(1);
  });
});

function request() {
  return { userId: 'u1', sessionId: 's1', newMessage: userContent('Weather?') };
}
