import { afterEach, describe, expect, it } from 'vitest';

import { makeContext, setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import type { CallbackContext } from '../context';
import { subscribe, type ChannelKey } from '../diagnostics/channels';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import type { Event } from '../events';
import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '../models';
import { BasePlugin } from '../plugins/base-plugin';
import { FakeModel, type FakeStep } from '../testing/fake-model';
import { fakeFunctionCall } from '../testing/fake-model-responses';
import { FunctionTool } from '../tools/function-tool';
import {
  callModel,
  callModelDirect,
  canCallModelDirectly,
  type CallModelOptions,
} from './call-model';

/**
 * `callModelDirect` is the non-generator fast path of `callModel` (non-streaming calls without
 * model hooks). It must be indistinguishable from the generator: same responses, diagnostics and
 * error responses, with and without hooks.
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

async function bothPaths(
  model: Model,
  signal?: AbortSignal,
): Promise<{
  direct: { responses: LlmResponse[]; diagnostics: [ChannelKey, Record<string, unknown>][] };
  generator: { responses: LlmResponse[]; diagnostics: [ChannelKey, Record<string, unknown>][] };
}> {
  const agent = new LlmAgent({ name: 'bot', model });
  const ctx = await makeContext(agent);
  if (signal) Object.defineProperty(ctx, 'signal', { value: signal });
  expect(canCallModelDirectly(agent, ctx)).toBe(true);
  const options = (): CallModelOptions => ({
    agent,
    ctx,
    model,
    request: { model: model.name, contents: [], config: {} },
    // The generator builds hook arguments on failure even without hooks; nothing reads them.
    callbackContext: () => ({}) as CallbackContext,
    span: { spanId: undefined },
  });
  const directOptions = options();
  let diagnostics = recordModelDiagnostics();
  const directResponses = await callModelDirect(directOptions);
  const direct = { responses: directResponses, diagnostics };
  stops.splice(0).forEach((stop) => stop());
  diagnostics = recordModelDiagnostics();
  const responses: LlmResponse[] = [];
  for await (const response of callModel(options())) responses.push(response);
  // The direct path records its span for the tool step, like the generator.
  expect(directOptions.span.spanId).toMatch(/./);
  return { direct, generator: { responses, diagnostics } };
}

describe('callModelDirect against callModel', () => {
  it('gives the same responses and diagnostics for a text and a function-call answer', async () => {
    const script: FakeStep[] = ['hello', fakeFunctionCall('lookup', { q: 1 })];
    for (const step of script) {
      const { direct, generator } = await bothPaths(new FakeModel({ responses: () => step }));
      expect(direct).toEqual(generator);
      expect(direct.responses).toHaveLength(1);
      expect(direct.diagnostics.map(([key]) => key)).toEqual(['modelCallStart', 'modelCallEnd']);
    }
  });

  it('folds the partial chunks of an always-streaming provider into one final response', async () => {
    const { direct, generator } = await bothPaths(new ChunkingModel());
    expect(direct).toEqual(generator);
    expect(direct.responses).toEqual([
      expect.objectContaining({ content: { role: 'model', parts: [{ text: 'Hello' }] } }),
    ]);
  });

  it('turns a typed and an untyped model failure into the same error responses', async () => {
    const failures: [Error, string][] = [
      [new ToolNotFoundError({ toolName: 'x', availableTools: [] }), 'TOOL_NOT_FOUND'],
      [new RangeError('provider exploded'), 'MODEL_ERROR'],
    ];
    for (const [failure, errorCode] of failures) {
      const { direct, generator } = await bothPaths(new FakeModel({ responses: () => failure }));
      expect(direct).toEqual(generator);
      expect(direct.responses[0]).toMatchObject({
        errorCode,
        errorMessage: expect.stringContaining(failure.message),
      });
      expect(direct.diagnostics.map(([key]) => key)).toEqual(['modelCallStart', 'modelCallError']);
    }
  });

  it('ends with no response and a cancelled span when the run is aborted mid-call', async () => {
    for (const path of ['direct', 'generator'] as const) {
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
        callbackContext: () => ({}) as CallbackContext,
        span: { spanId: undefined },
      };
      const pending =
        path === 'direct'
          ? callModelDirect(options)
          : (async () => {
              const responses: LlmResponse[] = [];
              for await (const response of callModel(options)) responses.push(response);
              return responses;
            })();
      await model.whenStarted;
      controller.abort(new TypeError('user cancelled'));
      expect(await pending).toEqual([]);
      expect(diagnostics.map(([key, message]) => [key, message.error])).toEqual([
        ['modelCallStart', undefined],
        ['modelCallError', controller.signal.reason],
      ]);
      stops.splice(0).forEach((stop) => stop());
    }
  });
});

describe('canCallModelDirectly', () => {
  const model = new FakeModel();
  class Hook extends BasePlugin {}

  it('is false with streaming, with any model callback, and with any model plugin', async () => {
    const plain = new LlmAgent({ name: 'bot', model });
    expect(canCallModelDirectly(plain, await makeContext(plain))).toBe(true);
    const streaming = await makeContext(plain, { runConfig: { streamingMode: 'sse' } });
    expect(canCallModelDirectly(plain, streaming)).toBe(false);
    const noop = () => undefined;
    for (const callback of [
      'beforeModelCallback',
      'afterModelCallback',
      'onModelErrorCallback',
    ] as const) {
      const agent = new LlmAgent({ name: 'bot', model, [callback]: noop });
      expect(canCallModelDirectly(agent, await makeContext(agent))).toBe(false);
    }
    for (const hook of ['beforeModel', 'afterModel', 'onModelError'] as const) {
      const plugin = Object.assign(new Hook('hook'), { [hook]: noop });
      const ctx = await makeContext(plain, { plugins: [plugin] });
      expect(canCallModelDirectly(plain, ctx)).toBe(false);
    }
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
