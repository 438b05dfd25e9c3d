import { afterEach, describe, expect, it, vi } from 'vitest';

import { collect, setup } from '../../test/helpers';
import { getText, userContent } from '../content';
import { channelNames, subscribe, type ChannelKey } from '../diagnostics/channels';
import type { Event } from '../events';
import { BasePlugin } from '../plugins/base-plugin';
import { FakeModel } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { BaseAgent } from './base-agent';
import type { InvocationContext } from './invocation-context';
import { LlmAgent, type LlmAgentOptions } from './llm-agent';

/**
 * `LlmAgent.run` runs the flow inline with the steps of `BaseAgent.run` (one generator layer less).
 * A subclass overriding `runImpl` takes `BaseAgent.run` around `runImpl`: every scenario below runs
 * both ways and must give the same events, hooks, diagnostics and errors.
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
  override beforeAgent({ agent }: { agent: BaseAgent }) {
    this.log.push(`plugin.beforeAgent ${agent.name}`);
    return undefined;
  }
  override afterAgent({ agent }: { agent: BaseAgent }) {
    this.log.push(`plugin.afterAgent ${agent.name}`);
    return undefined;
  }
  override onAgentError({ agent, error }: { agent: BaseAgent; error: unknown }) {
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
  }
> = {
  'a tool call and an answer, with hooks that write state': {
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
    options: () => ({
      model: model(),
      tools: [weather()],
      afterAgentCallback: () => userContent('And one more thing.'),
    }),
  },
  'an error recovered by onAgentError': {
    options: () => ({
      model: model(),
      beforeModelCallback: () => {
        throw new Error('boom');
      },
    }),
    extra: { recover: 'Recovered.' },
  },
  'an error nobody recovers': {
    options: () => ({
      model: model(),
      beforeModelCallback: () => {
        throw new Error('boom');
      },
    }),
  },
  'an abort during the tool call': {
    options: (_hooks, abort) => ({ model: model(), tools: [weather(abort)] }),
  },
  'a consumer that stops after the first event': {
    options: () => ({ model: model(), tools: [weather()] }),
    extra: { stopAfter: 1 },
  },
  'the call limit ending the invocation before the after hooks': {
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
    it(`behaves as BaseAgent.run around runImpl: ${name}`, async () => {
      const inline = await runScenario(
        (options) => new LlmAgent(options),
        scenario.options,
        scenario.extra,
      );
      const through = await runScenario(
        (options) => new ThroughRunImpl(options),
        scenario.options,
        scenario.extra,
      );
      expect(inline).toStrictEqual(through);
      // Every scenario says something: events, or the error.
      expect(inline.events.length > 0 || inline.thrown !== undefined).toBe(true);
      expect(inline.diagnostics.some((line) => line.startsWith('agentStart'))).toBe(true);
    });
  }

  it('runs inline for a plain LlmAgent, and through runImpl for a subclass that overrides it', async () => {
    const baseRun = vi.spyOn(BaseAgent.prototype, 'run');
    const inline = new LlmAgent({ name: 'inline', model: model(), tools: [weather()] });
    await collect((await setup(inline)).runner.run(request()));
    expect(baseRun).not.toHaveBeenCalled();
    const through = new ThroughRunImpl({ name: 'through', model: model(), tools: [weather()] });
    await collect((await setup(through)).runner.run(request()));
    expect(baseRun).toHaveBeenCalledTimes(1);
  });
});

function request() {
  return { userId: 'u1', sessionId: 's1', newMessage: userContent('Weather?') };
}
