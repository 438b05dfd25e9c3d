import {
  FunctionTool,
  getFunctionCalls,
  getText,
  LlmAgent,
  Runner,
  userContent,
  type Event,
  type LlmRequest,
  type LlmResponse,
  type Model,
} from '@adk/core';
import {
  readFixture,
  startFakeGemini,
  type FakeProviderServer,
  type FakeReply,
} from '@adk/fake-provider-servers';
import { ask, collect, collectUntilError } from '@adk/fake-provider-servers/acceptance';
import { afterEach, describe, expect, it } from 'vitest';

import { createGemini, ModelStreamError, type StreamingFunctionCall } from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: FakeReply[], streamFunctionCallArguments = true) {
  server = await startFakeGemini({ script });
  const gemini = createGemini({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    streamFunctionCallArguments,
  });
  return { server, model: gemini('gemini-3-pro-preview') };
}

const TOOLS: LlmRequest['config'] = {
  tools: [
    {
      functionDeclarations: [
        { name: 'book_trip', parameters: { type: 'object' } },
        { name: 'get_weather', parameters: { type: 'object' } },
      ],
    },
  ],
};

const withTools = (text: string) => ask(text, { config: TOOLS });

const sse = (body: string): FakeReply => ({
  raw: { body, headers: { 'content-type': 'text/event-stream' } },
});

/** One Gemini stream chunk holding `parts` (the last one with `finishReason: STOP`). */
function frame(parts: unknown[], finish = false): string {
  const candidate: Record<string, unknown> = { content: { role: 'model', parts }, index: 0 };
  if (finish) candidate.finishReason = 'STOP';
  return `data: ${JSON.stringify({ candidates: [candidate], modelVersion: 'gemini-3-pro-preview' })}\r\n\r\n`;
}

const progressOf = (responses: LlmResponse[]) =>
  responses
    .filter((r) => r.partial && r.customMetadata?.streamingFunctionCall)
    .map((r) => r.customMetadata!.streamingFunctionCall as StreamingFunctionCall);

const TRIP_ARGS = {
  traveller: { name: 'Zoë Dubois', loyalty: null, adults: 2 },
  legs: [
    { from: 'Paris', to: 'Lyon', seats: [12, 13] },
    { from: 'Lyon', to: 'Nice', seats: [4] },
  ],
  refundable: false,
  'special key': 'quote \' and "double"',
  notes: 'A long note that is streamed in many small pieces — ünïcödé included.',
};

describe('Gemini streamed function-call arguments (streamFunctionCallArguments)', () => {
  it('asks for them only on streamed calls with tools, when the setting is on', async () => {
    const { server, model } = await setup([{ text: 'a' }, { text: 'b' }, { text: 'c' }]);
    await collect(model.generate(withTools('x'), { stream: true }));
    await collect(model.generate(withTools('x'), { stream: false }));
    await collect(model.generate(ask('no tools'), { stream: true }));
    const toolConfigs = server.requests.map((r) => (r.body as { toolConfig?: unknown }).toolConfig);
    expect(toolConfigs).toEqual([
      { functionCallingConfig: { streamFunctionCallArguments: true } },
      undefined,
      undefined,
    ]);

    const off = await setup([{ text: 'a' }, { text: 'b' }], false);
    await collect(off.model.generate(withTools('x'), { stream: true }));
    await collect(
      off.model.generate(ask('x', { config: { ...TOOLS, toolChoice: 'required' } }), {
        stream: true,
      }),
    );
    expect(off.server.requests.map((r) => (r.body as { toolConfig?: unknown }).toolConfig)).toEqual(
      [undefined, { functionCallingConfig: { mode: 'ANY' } }],
    );
  });

  it('keeps the tool choice next to the streaming flag', async () => {
    const { server, model } = await setup([{ text: 'a' }]);
    await collect(
      model.generate(ask('x', { config: { ...TOOLS, toolChoice: { name: 'book_trip' } } }), {
        stream: true,
      }),
    );
    expect((server.requests[0]!.body as { toolConfig: unknown }).toolConfig).toEqual({
      functionCallingConfig: {
        mode: 'ANY',
        allowedFunctionNames: ['book_trip'],
        streamFunctionCallArguments: true,
      },
    });
  });

  it('assembles three parallel streamed calls into complete, typed calls in the final response', async () => {
    const { model } = await setup([
      {
        text: 'Booking now.',
        thinkingSignature: 'sig-first-call',
        argsChunkSize: 4,
        toolCalls: [
          { name: 'book_trip', args: TRIP_ARGS },
          { name: 'get_weather', args: { city: 'Nice', days: 3 } },
          { name: 'get_weather', args: { city: 'Lyon', days: 1.5 } },
        ],
      },
    ]);
    const responses = await collect(model.generate(withTools('Trip!'), { stream: true }));
    const final = responses.at(-1)!;
    expect(final.partial).toBe(false);
    const calls = getFunctionCalls(final.content);
    expect(calls.map((c) => [c.name, c.args])).toEqual([
      ['book_trip', TRIP_ARGS],
      ['get_weather', { city: 'Nice', days: 3 }],
      ['get_weather', { city: 'Lyon', days: 1.5 }],
    ]);
    expect(getText(final.content)).toBe('Booking now.');
    expect(final.content!.parts.find((p) => p.functionCall)!.thoughtSignature).toBe(
      'sig-first-call',
    );
    expect(final.finishReason).toBe('STOP');
    // no partial response holds a function call; progress is reported beside the content
    expect(
      responses.filter((r) => r.partial).every((r) => getFunctionCalls(r.content).length === 0),
    ).toBe(true);
    const progress = progressOf(responses);
    expect(new Set(progress.map((p) => p.id))).toEqual(new Set(calls.map((c) => c.id)));
    expect(progress.filter((p) => !p.willContinue).map((p) => p.id)).toEqual(
      calls.map((c) => c.id),
    );
    const notes = progress
      .flatMap((p) => p.deltas)
      .filter((d) => d.jsonPath === '$.notes')
      .map((d) => d.value);
    expect(notes.length).toBeGreaterThan(5);
    expect(notes.join('')).toBe(TRIP_ARGS.notes);
  });

  it('survives a stream delivered one byte at a time, and keeps provider call ids', async () => {
    const { model } = await setup([
      {
        toolCalls: [
          { id: 'fc-a', name: 'get_weather', args: { city: 'Köln', days: 2 } },
          { id: 'fc-b', name: 'get_weather', args: { city: 'Bonn', days: 0 } },
        ],
        faults: { byteChunkSize: 1 },
      },
    ]);
    const responses = await collect(model.generate(withTools('x'), { stream: true }));
    expect(getFunctionCalls(responses.at(-1)!.content)).toEqual([
      { id: 'fc-a', name: 'get_weather', args: { city: 'Köln', days: 2 } },
      { id: 'fc-b', name: 'get_weather', args: { city: 'Bonn', days: 0 } },
    ]);
  });

  it('reads the documented chunk shapes (fixture: string pieces, numbers, booleans, null, arrays)', async () => {
    const { model } = await setup([sse(readFixture('gemini/stream-function-call-args.sse'))]);
    const responses = await collect(
      model.generate(withTools('Warm the living room'), { stream: true }),
    );
    const final = responses.at(-1)!;
    expect(final.content!.parts).toEqual([
      {
        functionCall: {
          id: expect.stringMatching(/^adk-/),
          name: 'set_thermostat',
          args: {
            room: 'Living room',
            celsius: 21.5,
            eco: false,
            schedule: [{ from: '07:00', note: null }],
          },
        },
        thoughtSignature: 'CtgBAdHtim9q1Zm2f0a8VxQe7uAmFfZ3lBa6wDg2N5cZzM0=',
      },
    ]);
    expect(final.usageMetadata?.thoughtsTokenCount).toBe(164);
    expect(progressOf(responses)[0]).toEqual({
      id: final.content!.parts[0]!.functionCall!.id,
      name: 'set_thermostat',
      deltas: [],
      willContinue: true,
    });
  });

  it('a call with an id may interleave with another one', async () => {
    const body =
      frame([{ functionCall: { id: 'a', name: 'get_weather', willContinue: true } }]) +
      frame([{ functionCall: { id: 'b', name: 'get_weather', willContinue: true } }]) +
      frame([
        {
          functionCall: {
            id: 'a',
            partialArgs: [{ jsonPath: '$.city', stringValue: 'Par', willContinue: true }],
            willContinue: true,
          },
        },
      ]) +
      frame([
        { functionCall: { id: 'b', partialArgs: [{ jsonPath: '$.city', stringValue: 'Rome' }] } },
      ]) +
      frame(
        [{ functionCall: { id: 'a', partialArgs: [{ jsonPath: '$.city', stringValue: 'is' }] } }],
        true,
      );
    const { model } = await setup([sse(body)]);
    const responses = await collect(model.generate(withTools('x'), { stream: true }));
    expect(getFunctionCalls(responses.at(-1)!.content)).toEqual([
      { id: 'b', name: 'get_weather', args: { city: 'Rome' } },
      { id: 'a', name: 'get_weather', args: { city: 'Paris' } },
    ]);
  });
});

describe('Gemini streamed function-call arguments: ids', () => {
  it('a continuation may bring an id its call started without; the call takes it', async () => {
    const body =
      frame([{ functionCall: { name: 'get_weather', willContinue: true } }]) +
      frame([
        {
          functionCall: {
            id: 'late-id',
            partialArgs: [{ jsonPath: '$.city', stringValue: 'Oslo' }],
          },
        },
      ]) +
      frame([{ functionCall: {} }], true);
    const { model } = await setup([sse(body)]);
    const responses = await collect(model.generate(withTools('x'), { stream: true }));
    expect(getFunctionCalls(responses.at(-1)!.content)).toEqual([
      { id: 'late-id', name: 'get_weather', args: { city: 'Oslo' } },
    ]);
  });

  it('pieces for an id that never started, without a name, are malformed', async () => {
    const body =
      frame([{ functionCall: { id: 'a', name: 'get_weather', willContinue: true } }]) +
      frame([{ functionCall: { id: 'zzz', partialArgs: [{ jsonPath: '$.x', numberValue: 1 }] } }]) +
      frame([{ functionCall: { id: 'a' } }], true);
    const { model } = await setup([sse(body)]);
    const { error } = await collectUntilError(model.generate(withTools('x'), { stream: true }));
    expect(error).toMatchObject({ name: 'ModelStreamError', kind: 'malformed' });
  });
});

describe('Gemini streamed function-call arguments that go wrong', () => {
  const start = frame([{ functionCall: { name: 'get_weather', willContinue: true } }]);
  const piece = (arg: Record<string, unknown>, willContinue = true) =>
    frame([{ functionCall: { partialArgs: [arg], willContinue } }]);

  const cases: Array<[string, string, 'malformed' | 'incomplete', RegExp]> = [
    [
      'the response ends while a call is still streaming',
      start + piece({ jsonPath: '$.city', stringValue: 'Par' }) + frame([{ text: '' }], true),
      'incomplete',
      /still streaming/,
    ],
    [
      'arguments arrive for no call',
      piece({ jsonPath: '$.city', stringValue: 'Paris' }, false) + frame([], true),
      'malformed',
      /for no call/,
    ],
    [
      'another call starts before the first one ended',
      start +
        frame([{ functionCall: { name: 'book_trip', willContinue: true } }]) +
        frame([{ functionCall: {} }], true),
      'malformed',
      /started while "get_weather"/,
    ],
    [
      'an argument path is not a singular JSON path',
      start + piece({ jsonPath: '$.cities[*]', stringValue: 'Paris' }, false) + frame([], true),
      'malformed',
      /not a singular JSON path/,
    ],
    [
      'a string piece is appended to a number',
      start +
        piece({ jsonPath: '$.days', numberValue: 3 }) +
        piece({ jsonPath: '$.days', stringValue: 'x' }, false) +
        frame([], true),
      'malformed',
      /does not fit/,
    ],
    [
      'an array element is skipped',
      start + piece({ jsonPath: '$.days[1]', numberValue: 3 }, false) + frame([], true),
      'malformed',
      /skips elements/,
    ],
  ];

  for (const [title, body, kind, message] of cases) {
    it(`${title}: ModelStreamError(${kind}), and no call is returned`, async () => {
      const { model } = await setup([sse(body)]);
      const { responses, error } = await collectUntilError(
        model.generate(withTools('x'), { stream: true }),
      );
      expect(ModelStreamError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ kind, provider: 'gemini' });
      expect((error as Error).message).toMatch(message);
      expect(responses.every((r) => r.partial)).toBe(true);
      expect(responses.flatMap((r) => getFunctionCalls(r.content))).toEqual([]);
    });
  }
});

describe('Gemini streamed function-call arguments through a Runner', () => {
  async function run(model: Model) {
    const received: unknown[] = [];
    const tool = new FunctionTool({
      name: 'get_weather',
      description: 'Weather of a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'integer' } },
        required: ['city', 'days'],
      },
      execute: (args) => {
        received.push(args);
        return { forecast: 'sunny' };
      },
    });
    const agent = new LlmAgent({ name: 'weather', model, tools: [tool] });
    const runner = new Runner({ appName: 'streamed-args', agent, autoCreateSession: true });
    const events: Event[] = [];
    try {
      for await (const event of runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: userContent('Weather?'),
        runConfig: { streamingMode: 'sse' },
      })) {
        events.push(event);
      }
    } finally {
      await runner.close();
    }
    return { events, received };
  }

  it('runs each assembled call once, with its typed arguments', async () => {
    const { model } = await setup([
      {
        toolCalls: [
          { name: 'get_weather', args: { city: 'Paris', days: 2 } },
          { name: 'get_weather', args: { city: 'Oslo', days: 5 } },
        ],
        argsChunkSize: 2,
      },
      { text: 'Sunny in both.' },
    ]);
    const { events, received } = await run(model);
    expect(received).toEqual([
      { city: 'Paris', days: 2 },
      { city: 'Oslo', days: 5 },
    ]);
    expect(events.some((e) => e.partial && e.customMetadata?.streamingFunctionCall)).toBe(true);
    expect(getText(events.at(-1)!.content)).toBe('Sunny in both.');
  });

  it('turns a broken argument stream into an error event and runs nothing', async () => {
    const body =
      frame([{ functionCall: { name: 'get_weather', willContinue: true } }]) +
      frame([
        {
          functionCall: {
            partialArgs: [{ jsonPath: '$.city', stringValue: 'Par', willContinue: true }],
            willContinue: true,
          },
        },
      ]) +
      frame([], true);
    const { model } = await setup([sse(body)]);
    const { events, received } = await run(model);
    expect(received).toEqual([]);
    const last = events.at(-1)!;
    expect(last).toMatchObject({ errorCode: 'MODEL_STREAM_ERROR' });
    expect(last.errorMessage).toContain('still streaming');
    expect(events.flatMap((e) => getFunctionCalls(e.content))).toEqual([]);
  });
});
