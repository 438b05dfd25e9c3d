import { describe, expect, it } from 'vitest';

import type { LlmRequest, LlmResponse } from '../models';
import { FakeModel } from './fake-model';
import { FakeModelError } from './fake-model-error';
import { fakeFunctionCall, fakeFunctionCalls, fakeText } from './fake-model-responses';

const request = (text = 'hi'): LlmRequest => ({
  model: 'fake',
  contents: [{ role: 'user', parts: [{ text }] }],
  config: {},
});

async function call(
  model: FakeModel,
  options: { stream?: boolean; signal?: AbortSignal } = {},
  text?: string,
) {
  const out: LlmResponse[] = [];
  for await (const response of model.generate(request(text), {
    stream: options.stream ?? false,
    signal: options.signal,
  })) {
    out.push(response);
  }
  return out;
}

describe('FakeModel', () => {
  it('plays scripted responses in order and records every request', async () => {
    const model = new FakeModel([
      'hello',
      { functionCalls: [{ name: 'f', args: { x: 1 } }, { name: 'g' }] },
      fakeText('bye', { usageMetadata: { totalTokenCount: 9 } }),
    ]);
    expect(await call(model, {}, 'one')).toEqual([fakeText('hello')]);
    expect(await call(model, {}, 'two')).toEqual([
      fakeFunctionCalls({ name: 'f', args: { x: 1 } }, { name: 'g' }),
    ]);
    expect((await call(model))[0]!.usageMetadata).toEqual({ totalTokenCount: 9 });
    expect(model.requests.map((r) => r.contents[0]!.parts[0]!.text)).toEqual(['one', 'two', 'hi']);
    expect(model.callCount).toBe(3);
  });

  it('streams chunks as partial responses, then the aggregated final response', async () => {
    const model = new FakeModel([
      [
        'Hel',
        'lo ',
        { content: { role: 'model', parts: [{ text: 'world' }] }, finishReason: 'STOP' },
      ],
    ]);
    const responses = await call(model, { stream: true });
    expect(responses.map((r) => [r.partial, r.content?.parts[0]?.text])).toEqual([
      [true, 'Hel'],
      [true, 'lo '],
      [true, 'world'],
      [false, 'Hello world'],
    ]);
    expect(responses.at(-1)!.finishReason).toBe('STOP');
    const quiet = new FakeModel([['a', 'b']]);
    expect((await call(quiet)).map((r) => r.content?.parts[0]?.text)).toEqual(['ab']);
  });

  it('throws scripted errors', async () => {
    const model = new FakeModel([new TypeError('rate limited')]);
    await expect(call(model)).rejects.toThrow('rate limited');
  });

  it('computes responses with a function of the request and index', async () => {
    const model = new FakeModel({
      responses: (req, index) => `${index}:${req.contents[0]!.parts[0]!.text}`,
    });
    await call(model, {}, 'a');
    expect((await call(model, {}, 'b'))[0]).toEqual(fakeText('1:b'));
  });

  it('in strict mode fails on an extra call and on unconsumed responses', async () => {
    const model = new FakeModel({ responses: ['only', 'unused'], strict: true });
    await call(model);
    expect(() => model.assertAllConsumed()).toThrow(FakeModelError);
    await call(model);
    model.assertAllConsumed();
    const error = await call(model).catch((e: unknown) => e);
    expect(FakeModelError.isInstance(error) && error.reason).toBe('unexpected-call');
    // A run turns the throw into an error event; assertAllConsumed still reports it.
    expect(() => model.assertAllConsumed()).toThrow(/1 call\(s\) more than the 2 scripted/);
  });

  it('answers extra calls with the fallback when not strict', async () => {
    expect(await call(new FakeModel())).toEqual([fakeText('')]);
    expect(await call(new FakeModel({ fallback: 'default' }))).toEqual([fakeText('default')]);
  });

  it('stops streaming when the signal aborts between chunks', async () => {
    const controller = new AbortController();
    const model = new FakeModel([['a', 'b', 'c']]);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const response of model.generate(request(), {
        stream: true,
        signal: controller.signal,
      })) {
        seen.push(response.content!.parts[0]!.text!);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['a']);
    expect((error as Error).name).toBe('AbortError');
  });

  it('builds function-call responses tersely', () => {
    expect(fakeFunctionCall('get', { q: 1 }, 'id-9').content!.parts[0]).toEqual({
      functionCall: { id: 'id-9', name: 'get', args: { q: 1 } },
    });
    expect(new FakeModel({ name: 'mine' }).asProvider().patterns).toEqual(['mine']);
  });
});
