import { getFunctionCalls } from '@adk/core';
import { startFakeAnthropic, type FakeProviderServer } from '@adk/fake-provider-servers';
import { ask, collectUntilError } from '@adk/fake-provider-servers/acceptance';
import { afterEach, describe, expect, it } from 'vitest';

import { createAnthropic } from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function stream(events: Array<Record<string, unknown>>) {
  const body = events
    .map((data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`)
    .join('');
  server = await startFakeAnthropic({
    script: [{ raw: { body, headers: { 'content-type': 'text/event-stream' } } }],
  });
  const model = createAnthropic({ apiKey: 'test-key', baseURL: server.baseURL })(
    'claude-sonnet-4-5',
  );
  return collectUntilError(model.generate(ask('x'), { stream: true }));
}

const start = { type: 'message_start', message: { model: 'claude-sonnet-4-5', usage: {} } };
const toolStart = (index: number, id: string, name: string) => ({
  type: 'content_block_start',
  index,
  content_block: { type: 'tool_use', id, name, input: {} },
});
const json = (index: number, partial_json: string) => ({
  type: 'content_block_delta',
  index,
  delta: { type: 'input_json_delta', partial_json },
});
const stop = (index: number) => ({ type: 'content_block_stop', index });
const end = [
  { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
  { type: 'message_stop' },
];

describe('Anthropic streamed parallel tool_use blocks', () => {
  it('assembles input_json_delta fragments by block index, even when blocks interleave', async () => {
    const { responses, error } = await stream([
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Both.' } },
      toolStart(1, 'toolu_a', 'get_weather'),
      toolStart(2, 'toolu_b', 'get_weather'),
      toolStart(3, 'toolu_c', 'get_time'),
      json(2, '{"city": "Ro'),
      json(1, '{"ci'),
      json(1, 'ty": "Paris"'),
      json(2, 'me"}'),
      stop(0),
      json(1, '}'),
      stop(2),
      stop(1),
      stop(3),
      ...end,
    ]);
    expect(error).toBeUndefined();
    expect(getFunctionCalls(responses.at(-1)!.content)).toEqual([
      { id: 'toolu_a', name: 'get_weather', args: { city: 'Paris' } },
      { id: 'toolu_b', name: 'get_weather', args: { city: 'Rome' } },
      { id: 'toolu_c', name: 'get_time', args: {} },
    ]);
    // tool inputs never leak into the streamed deltas
    expect(responses.filter((r) => r.partial).flatMap((r) => r.content?.parts ?? [])).toEqual([
      { text: 'Both.' },
    ]);
  });

  it('a cut input of one of several calls is MALFORMED_FUNCTION_CALL, as without streaming; no call is returned', async () => {
    const { responses, error } = await stream([
      start,
      toolStart(0, 'toolu_a', 'get_weather'),
      json(0, '{"city": "Paris"}'),
      stop(0),
      toolStart(1, 'toolu_b', 'get_weather'),
      json(1, '{"city": "Ro'),
      stop(1),
      ...end,
    ]);
    expect(error).toBeUndefined();
    expect(responses.at(-1)).toMatchObject({
      partial: false,
      errorCode: 'MALFORMED_FUNCTION_CALL',
      errorMessage: 'The input of tool "get_weather" is not a JSON object.',
    });
    expect(responses.flatMap((r) => getFunctionCalls(r.content))).toEqual([]);
  });

  it('a stream that ends inside a tool input throws ModelStreamError(incomplete)', async () => {
    const { responses, error } = await stream([
      start,
      toolStart(0, 'toolu_a', 'get_weather'),
      json(0, '{"city": "Pa'),
    ]);
    expect(error).toMatchObject({ name: 'ModelStreamError', kind: 'incomplete' });
    expect(responses).toEqual([]);
  });
});
