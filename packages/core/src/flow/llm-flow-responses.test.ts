import { afterEach, describe, expect, it } from 'vitest';

import { setup } from '../../test/helpers';
import { LlmAgent } from '../agents/llm-agent';
import { getText, userContent } from '../content';
import { subscribe } from '../diagnostics/channels';
import type { Event } from '../events';
import type { GenerateOptions, LlmRequest, LlmResponse, Model } from '../models';

/**
 * The flow reads the direct path's responses by index and the hook path's generator by hand,
 * closing it as `for await` would: these tests pin what a consumer can observe of that.
 */
const stops: (() => void)[] = [];
afterEach(() => {
  while (stops.length) stops.pop()!();
});

/** Streams three chunks, then a final answer; records whether its generator was closed early. */
class ChunkModel implements Model {
  readonly name = 'chunks';
  closed = 0;
  completed = 0;
  async *generate(_request: LlmRequest, _options: GenerateOptions): AsyncGenerator<LlmResponse> {
    let done = false;
    try {
      for (const text of ['a', 'b', 'c'])
        yield { content: { role: 'model', parts: [{ text }] }, partial: true };
      yield { content: { role: 'model', parts: [{ text: 'abc' }] }, turnComplete: true };
      done = true;
    } finally {
      if (done) this.completed++;
      else this.closed++;
    }
  }
}

/** Answers with two complete responses in one call. */
class TwoAnswersModel implements Model {
  readonly name = 'two';
  async *generate(): AsyncGenerator<LlmResponse> {
    yield { content: { role: 'model', parts: [{ text: 'first' }] } };
    yield { content: { role: 'model', parts: [{ text: 'second' }] }, turnComplete: true };
  }
}

async function run(
  agent: LlmAgent,
  options: { stream?: boolean; stopAfter?: number } = {},
): Promise<Event[]> {
  const { runner } = await setup(agent);
  const events: Event[] = [];
  for await (const event of runner.run({
    userId: 'u1',
    sessionId: 's1',
    newMessage: userContent('hi'),
    runConfig: options.stream ? { streamingMode: 'sse' } : undefined,
  })) {
    events.push(event);
    if (events.length === options.stopAfter) break;
  }
  return events;
}

describe('the responses of a model call', () => {
  it('closes the model call when the consumer stops mid-stream, and reports it cancelled', async () => {
    const errors: unknown[] = [];
    stops.push(subscribe('modelCallError', (message) => errors.push(message.error)));
    const model = new ChunkModel();
    const events = await run(new LlmAgent({ name: 'helper', model }), {
      stream: true,
      stopAfter: 1,
    });
    expect(events.map((event) => getText(event.content))).toEqual(['a']);
    expect(model.closed).toBe(1);
    expect(errors).toEqual(['cancelled: the consumer stopped the stream']);
  });

  it('reads every chunk and the final response when nobody stops', async () => {
    const model = new ChunkModel();
    const events = await run(new LlmAgent({ name: 'helper', model }), { stream: true });
    expect(events.map((event) => [getText(event.content), event.partial ?? false])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
      ['abc', false],
    ]);
    expect([model.closed, model.completed]).toEqual([0, 1]);
  });

  it('gives every complete response of a direct call its event, in order', async () => {
    const direct = await run(new LlmAgent({ name: 'helper', model: new TwoAnswersModel() }));
    // The same model through the hook path (a no-op callback) gives the same events.
    const hooked = await run(
      new LlmAgent({
        name: 'helper',
        model: new TwoAnswersModel(),
        beforeModelCallback: () => undefined,
      }),
    );
    const shape = (events: Event[]) =>
      events.map((event) => [getText(event.content), event.turnComplete]);
    expect(shape(direct)).toEqual([
      ['first', undefined],
      ['second', true],
    ]);
    expect(shape(hooked)).toEqual(shape(direct));
  });
});
