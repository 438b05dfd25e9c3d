/**
 * Tool arguments cut short by the output limit (`finish_reason: "length"`) are `MAX_TOKENS`, as
 * with the other providers, streamed or not; arguments that are complete but not a JSON object
 * stay `MALFORMED_FUNCTION_CALL`. No call is handed out in either case.
 */
import { getFunctionCalls } from '@adk/core';
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

async function finalOf(reply: FakeReply, stream: boolean) {
  server = await startFakeOpenAI({ script: [reply] });
  const model = createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL })('gpt-4o');
  const responses = await collect(model.generate(ask('Weather in Paris and Rome?'), { stream }));
  expect(responses.flatMap((response) => getFunctionCalls(response.content))).toEqual([]);
  return responses.at(-1)!;
}

describe('OpenAI tool arguments cut by the output limit', () => {
  for (const stream of [false, true]) {
    it(`finish_reason length with cut arguments is MAX_TOKENS (stream: ${stream})`, async () => {
      const final = await finalOf(
        {
          toolCalls: [
            { name: 'get_weather', args: { city: 'Paris' } },
            { name: 'get_weather', args: {}, rawArgs: '{"city": "Ro' },
          ],
          finishReason: 'length',
        },
        stream,
      );
      expect(final).toMatchObject({ finishReason: 'MAX_TOKENS', errorCode: 'MAX_TOKENS' });
    });

    it(`complete arguments that are not an object stay MALFORMED_FUNCTION_CALL (stream: ${stream})`, async () => {
      const final = await finalOf(
        { toolCalls: [{ name: 'get_weather', args: {}, rawArgs: '"Paris"' }] },
        stream,
      );
      expect(final).toMatchObject({ errorCode: 'MALFORMED_FUNCTION_CALL' });
    });
  }
});
