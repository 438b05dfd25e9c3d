/**
 * A tool input the model got wrong reads the same whether the answer was streamed or not: a
 * complete input that is not a JSON object is `MALFORMED_FUNCTION_CALL` (`null` included), and an
 * input cut short by the output limit is `MAX_TOKENS`; no call is handed out in either case.
 */
import { getFunctionCalls, getText } from '@adk/core';
import {
  startFakeAnthropic,
  type FakeProviderServer,
  type FakeReply,
} from '@adk/fake-provider-servers';
import { ask, collect } from '@adk/fake-provider-servers/acceptance';
import { afterEach, describe, expect, it } from 'vitest';

import { createAnthropic } from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function finalOf(reply: FakeReply, stream: boolean) {
  server = await startFakeAnthropic({ script: [reply] });
  const model = createAnthropic({ apiKey: 'test-key', baseURL: server.baseURL })(
    'claude-sonnet-4-5',
  );
  const responses = await collect(model.generate(ask('Weather in Paris?'), { stream }));
  expect(responses.flatMap((response) => getFunctionCalls(response.content))).toEqual([]);
  return responses.at(-1)!;
}

describe('Anthropic tool inputs that are not arguments', () => {
  for (const stream of [false, true]) {
    for (const input of ['"Paris"', '[1, 2]', '5', 'null']) {
      it(`input ${input} is MALFORMED_FUNCTION_CALL (stream: ${stream})`, async () => {
        const final = await finalOf(
          { text: 'Checking.', toolCalls: [{ name: 'get_weather', args: {}, rawArgs: input }] },
          stream,
        );
        expect(final).toMatchObject({
          finishReason: 'MALFORMED_FUNCTION_CALL',
          errorCode: 'MALFORMED_FUNCTION_CALL',
          errorMessage: 'The input of tool "get_weather" is not a JSON object.',
        });
        expect(getText(final.content)).toBe('Checking.');
      });
    }

    it(`input that is not JSON is MALFORMED_FUNCTION_CALL (stream: ${stream})`, async () => {
      const final = await finalOf(
        { toolCalls: [{ name: 'get_weather', args: {}, rawArgs: '{"city": "Par' }] },
        stream,
      );
      expect(final).toMatchObject({ errorCode: 'MALFORMED_FUNCTION_CALL' });
    });

    it(`input cut by max_tokens is MAX_TOKENS (stream: ${stream})`, async () => {
      const final = await finalOf(
        {
          toolCalls: [{ name: 'get_weather', args: {}, rawArgs: '{"city": "Par' }],
          finishReason: 'length',
        },
        stream,
      );
      expect(final).toMatchObject({ finishReason: 'MAX_TOKENS', errorCode: 'MAX_TOKENS' });
    });
  }
});
