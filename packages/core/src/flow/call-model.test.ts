import { afterEach, describe, expect, it } from 'vitest';

import { makeContext, setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import type { CallbackContext } from '../context';
import { subscribe, type ChannelKey } from '../diagnostics/channels';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import type { Event } from '../events';
import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '../models';
import { FakeModel, type FakeStep } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import { callModel, streamModel, type CallModelOptions } from './call-model';

/**
 * `callModel` is the one path through which the flow calls a model, with or without model hooks
 * and streaming: its responses, diagnostics and error responses.
 */

const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

const CHANNELS = ['modelCallStart', 'modelCallEnd', 'modelCallError'] as const;

/** Every model-call diagnostic in order, as `[channel, message]` without times and span ids. */
function recordModelDiagnostics(): [ChannelKey, Record<string, unknown>][] {
  const seen: [ChannelKey, Record<string, unknown>][] = [];
  for (const key of CHANNELS) {
    stops.push(
      subscribe(key, (message) => {
        const {
          spanId: _s,
          parentSpanId: _p,
          startTime: _t,
          durationMs: _d,
          ...rest
        } = message as unknown as Record<string, unknown>;
        seen.push([key, rest]);
      }),
    );
  }
  return seen;
}

/** A provider that always streams: partial chunks even when `stream` is false. */
class ChunkingModel implements Model {
  readonly name = 'chunking';
  async *generate(_request: LlmRequest, _options: GenerateOptions): AsyncGenerator<LlmResponse> {
    yield { content: { role: 'model', parts: [{ text: 'Hel' }] }, partial: true };
    yield { content: { role: 'model', parts: [{ text: 'lo' }] }, partial: true };
  }
}

/** A model that ignores the abort signal and never answers until it is released. */
class HangingModel implements Model {
  readonly name = 'hanging';
  started!: () => void;
  readonly whenStarted = new Promise<void>((resolve) => (this.started = resolve));
  async *generate(): AsyncGenerator<LlmResponse> {
    this.started();
    await new Promise(() => undefined);
    yield { content: { role: 'model', parts: [{ text: 'never' }] } };
  }
}

/** Calls `model` once through `callModel`, recording the responses and the diagnostics. */
async function callOnce(model: Model): Promise<{
  responses: LlmResponse[];
  diagnostics: [ChannelKey, Record<string, unknown>][];
}> {
  const agent = new LlmAgent({ name: 'bot', model });
  const ctx = await makeContext(agent);
  const options: CallModelOptions = {
    agent,
    ctx,
    model,
    request: { model: model.name, contents: [], config: {} },
    // Hook arguments are built on failure even without hooks; nothing reads them.
    callbacks: { callbackContext: () => ({}) as CallbackContext },
    span: { spanId: undefined },
  };
  const diagnostics = recordModelDiagnostics();
  const responses: LlmResponse[] = [];
  responses.push(...(await callModel(options)));
  // The span id is recorded for the tool step (the parent of its tool spans).
  expect(options.span.spanId).toMatch(/./);
  return { responses, diagnostics };
}

describe('callModel', () => {
  it('answers a text and a function-call answer with one response and a closed span', async () => {
    const script: FakeStep[] = ['hello', fakeFunctionCall('lookup', { q: 1 })];
    for (const step of script) {
      const { responses, diagnostics } = await callOnce(new FakeModel({ responses: () => step }));
      expect(responses).toHaveLength(1);
      expect(responses[0]!.errorCode).toBeUndefined();
      expect(diagnostics.map(([key]) => key)).toEqual(['modelCallStart', 'modelCallEnd']);
      expect(diagnostics[1]![1]).toMatchObject({ response: responses[0] });
    }
  });

  it('folds the partial chunks of an always-streaming provider into one final response', async () => {
    const { responses } = await callOnce(new ChunkingModel());
    expect(responses).toEqual([
      expect.objectContaining({ content: { role: 'model', parts: [{ text: 'Hello' }] } }),
    ]);
  });

  it('turns a typed and an untyped model failure into error responses', async () => {
    const failures: [Error, string][] = [
      [new ToolNotFoundError({ toolName: 'x', availableTools: [] }), 'TOOL_NOT_FOUND'],
      [new RangeError('provider exploded'), 'MODEL_ERROR'],
    ];
    for (const [failure, errorCode] of failures) {
      const { responses, diagnostics } = await callOnce(
        new FakeModel({ responses: () => failure }),
      );
      expect(responses).toEqual([
        expect.objectContaining({
          errorCode,
          errorMessage: expect.stringContaining(failure.message),
        }),
      ]);
      expect(diagnostics.map(([key]) => key)).toEqual(['modelCallStart', 'modelCallError']);
      stops.splice(0).forEach((stop) => stop());
    }
  });

  it('ends with no response and a cancelled span when the run is aborted mid-call', async () => {
    const model = new HangingModel();
    const agent = new LlmAgent({ name: 'bot', model });
    const ctx = await makeContext(agent);
    const controller = new AbortController();
    Object.defineProperty(ctx, 'signal', { value: controller.signal });
    const diagnostics = recordModelDiagnostics();
    const options: CallModelOptions = {
      agent,
      ctx,
      model,
      request: { model: model.name, contents: [], config: {} },
      callbacks: { callbackContext: () => ({}) as CallbackContext },
      span: { spanId: undefined },
    };
    const pending = (async () => {
      const responses: LlmResponse[] = [];
      responses.push(...(await callModel(options)));
      return responses;
    })();
    await model.whenStarted;
    controller.abort(new TypeError('user cancelled'));
    expect(await pending).toEqual([]);
    expect(diagnostics.map(([key, message]) => [key, message.error])).toEqual([
      ['modelCallStart', undefined],
      ['modelCallError', controller.signal.reason],
    ]);
  });
});

describe('a run with and without model hooks', () => {
  /** Events without ids and timestamps, which differ between any two runs. */
  const shape = (events: Event[]) =>
    events.map(
      ({ id: _i, timestamp: _t, invocationId: _v, ...rest }) =>
        JSON.parse(
          JSON.stringify(rest, (key, value: unknown) => (key === 'id' ? '<id>' : value)),
        ) as unknown,
    );

  async function run(hooks: boolean, steps: FakeStep[]): Promise<Event[]> {
    const noop = () => undefined;
    const tool = new FunctionTool({ name: 'lookup', description: 'l', execute: () => 'found' });
    const agent = new LlmAgent({
      name: 'bot',
      model: new FakeModel(steps),
      tools: [tool],
      ...(hooks
        ? { beforeModelCallback: noop, afterModelCallback: noop, onModelErrorCallback: noop }
        : {}),
    });
    const { run } = await setup(agent);
    return run('question');
  }

  it('stores the same events for a tool call, an answer and a model failure', async () => {
    const steps = (): FakeStep[] => [fakeFunctionCall('lookup'), 'done'];
    expect(shape(await run(false, steps()))).toEqual(shape(await run(true, steps())));
    const failing = (): FakeStep[] => [fakeFunctionCall('lookup'), new RangeError('down')];
    const withoutHooks = await run(false, failing());
    expect(shape(withoutHooks)).toEqual(shape(await run(true, failing())));
    expect(withoutHooks.at(-1)).toMatchObject({ errorCode: 'MODEL_ERROR' });
  });
});

describe('streamModel', () => {
  async function options(model: Model): Promise<CallModelOptions> {
    const agent = new LlmAgent({ name: 'bot', model });
    const ctx = await makeContext(agent, { runConfig: { streamingMode: 'sse' } });
    return {
      agent,
      ctx,
      model,
      request: { model: model.name, contents: [], config: {} },
      callbacks: { callbackContext: () => ({}) as CallbackContext },
      span: { spanId: undefined },
    };
  }

  it('yields the chunks as they come and returns the final response they fold into', async () => {
    const diagnostics = recordModelDiagnostics();
    const stream = streamModel(await options(new ChunkingModel()));
    const chunks: LlmResponse[] = [];
    let next = await stream.next();
    while (!next.done) {
      chunks.push(next.value);
      next = await stream.next();
    }
    expect(chunks.map((chunk) => chunk.content?.parts[0]?.text)).toEqual(['Hel', 'lo']);
    expect(next.value).toEqual([
      expect.objectContaining({ content: { role: 'model', parts: [{ text: 'Hello' }] } }),
    ]);
    expect(diagnostics.map(([key]) => key)).toEqual(['modelCallStart', 'modelCallEnd']);
  });

  it('ends the span as cancelled when the consumer stops after the first chunk', async () => {
    const diagnostics = recordModelDiagnostics();
    const stream = streamModel(await options(new ChunkingModel()));
    expect((await stream.next()).value).toMatchObject({ partial: true });
    await stream.return([]);
    expect(diagnostics.map(([key, message]) => [key, message.error])).toEqual([
      ['modelCallStart', undefined],
      ['modelCallError', 'cancelled: the consumer stopped the stream'],
    ]);
  });
});
