import {
  FunctionTool,
  getFunctionCalls,
  LlmAgent,
  Runner,
  userContent,
  type Event,
} from '@adk/core';
import {
  startFakeOpenAI,
  type FakeProviderServer,
  type FakeReply,
} from '@adk/fake-provider-servers';
import { ask, collect } from '@adk/fake-provider-servers/acceptance';
import { afterEach, describe, expect, it } from 'vitest';

import { createOpenAI } from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function streamed(script: FakeReply[]) {
  server = await startFakeOpenAI({ script });
  const model = createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL })('gpt-4o');
  const responses = await collect(model.generate(ask('x'), { stream: true }));
  return responses.at(-1)!;
}

const sse = (chunks: unknown[]): FakeReply => ({
  raw: {
    body: chunks.map((c) => `data: ${typeof c === 'string' ? c : JSON.stringify(c)}\n\n`).join(''),
    headers: { 'content-type': 'text/event-stream' },
  },
});
const chunk = (toolCalls: unknown[], finish: string | null = null) => ({
  choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finish }],
});

describe('OpenAI-compatible streamed parallel tool calls', () => {
  it('keeps all N calls when their fragments interleave round-robin, split anywhere', async () => {
    const calls = [
      { name: 'get_weather', args: { city: 'Paris', days: 3 } },
      { name: 'get_weather', args: { city: 'Tōkyō', days: 1 } },
      { name: 'get_time', args: {} },
      { name: 'search', args: { q: 'a "quoted" {brace}', tags: ['x', 'y'] } },
    ];
    const final = await streamed([
      {
        toolCalls: calls,
        argsChunkSize: 2,
        interleaveToolCalls: true,
        faults: { byteChunkSize: 5 },
      },
    ]);
    expect(getFunctionCalls(final.content).map((c) => [c.name, c.args])).toEqual(
      calls.map((c) => [c.name, c.args]),
    );
    expect(new Set(getFunctionCalls(final.content).map((c) => c.id)).size).toBe(4);
    expect(final.errorCode).toBeUndefined();
  });

  it('starts a new call when a fragment brings a new id at an index already used', async () => {
    // Some compatible servers number every call 0 and tell them apart by id only.
    const final = await streamed([
      sse([
        chunk([
          { index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } },
        ]),
        chunk([{ index: 0, function: { arguments: '{"n":1}' } }]),
        chunk([
          { index: 0, id: 'call_b', type: 'function', function: { name: 'f', arguments: '' } },
        ]),
        chunk([{ index: 0, function: { arguments: '{"n":' } }]),
        chunk([{ index: 0, function: { arguments: '2}' } }]),
        chunk(
          [{ index: 0, id: 'call_c', type: 'function', function: { name: 'g', arguments: '{}' } }],
          'tool_calls',
        ),
        '[DONE]',
      ]),
    ]);
    expect(getFunctionCalls(final.content)).toEqual([
      { id: 'call_a', name: 'f', args: { n: 1 } },
      { id: 'call_b', name: 'f', args: { n: 2 } },
      { id: 'call_c', name: 'g', args: {} },
    ]);
  });

  it('appends fragments without index or id to the call in progress', async () => {
    const final = await streamed([
      sse([
        chunk([{ id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"a":' } }]),
        chunk([{ function: { arguments: '"x"}' } }]),
        chunk([{ id: 'call_b', type: 'function', function: { name: 'g', arguments: '' } }]),
        chunk([{ function: { arguments: '{"b":true}' } }], 'tool_calls'),
        '[DONE]',
      ]),
    ]);
    expect(getFunctionCalls(final.content)).toEqual([
      { id: 'call_a', name: 'f', args: { a: 'x' } },
      { id: 'call_b', name: 'g', args: { b: true } },
    ]);
  });
});

describe('OpenAI-compatible parallel tool calls with one malformed', () => {
  const calls = (second: string) => [
    chunk([
      { index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"n":1}' } },
    ]),
    chunk([
      { index: 1, id: 'call_b', type: 'function', function: { name: 'f', arguments: second } },
    ]),
    chunk(
      [{ index: 2, id: 'call_c', type: 'function', function: { name: 'f', arguments: '{"n":3}' } }],
      'tool_calls',
    ),
    '[DONE]',
  ];

  it('returns none of the calls: the response is MALFORMED_FUNCTION_CALL', async () => {
    const final = await streamed([sse(calls('{"n":'))]);
    expect(final).toMatchObject({
      finishReason: 'MALFORMED_FUNCTION_CALL',
      errorCode: 'MALFORMED_FUNCTION_CALL',
    });
    expect(final.errorMessage).toContain('{"n":');
    expect(getFunctionCalls(final.content)).toEqual([]);
  });

  it('the same without streaming', async () => {
    const toolCall = (id: string, args: string) => ({
      id,
      type: 'function',
      function: { name: 'f', arguments: args },
    });
    const body = JSON.stringify({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Three calls.',
            tool_calls: [toolCall('a', '{"n":1}'), toolCall('b', 'not json'), toolCall('c', '{}')],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    server = await startFakeOpenAI({
      script: [{ raw: { body, headers: { 'content-type': 'application/json' } } }],
    });
    const model = createOpenAI({ apiKey: 'k', baseURL: server.baseURL })('gpt-4o');
    const [final] = await collect(model.generate(ask('x'), { stream: false }));
    expect(final).toMatchObject({ errorCode: 'MALFORMED_FUNCTION_CALL' });
    expect(final!.content!.parts).toEqual([{ text: 'Three calls.' }]);
  });

  it('through a Runner: an error event, and no tool runs', async () => {
    server = await startFakeOpenAI({ script: [sse(calls('[1, 2]'))] });
    const ran: unknown[] = [];
    const agent = new LlmAgent({
      name: 'a',
      model: createOpenAI({ apiKey: 'k', baseURL: server.baseURL })('gpt-4o'),
      tools: [
        new FunctionTool({
          name: 'f',
          description: 'f',
          parameters: { type: 'object' },
          execute: (args) => void ran.push(args),
        }),
      ],
    });
    const runner = new Runner({ appName: 'm', agent, autoCreateSession: true });
    const events: Event[] = [];
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('x'),
      runConfig: { streamingMode: 'sse' },
    }))
      events.push(event);
    await runner.close();
    expect(ran).toEqual([]);
    expect(events.at(-1)).toMatchObject({ errorCode: 'MALFORMED_FUNCTION_CALL' });
    expect(server.requests).toHaveLength(1);
  });
});
