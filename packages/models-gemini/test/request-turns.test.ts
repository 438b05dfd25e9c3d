import { modelContent, userContent, type LlmRequest } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { CONTINUE_TEXT, LEADING_USER_TEXT, toGeminiRequest } from '../src';

const request = (contents: LlmRequest['contents']): LlmRequest => ({
  model: 'gemini-2.5-flash',
  contents,
  config: {},
});

describe('toGeminiRequest turn order', () => {
  it('starts with a user turn and ends with one, keeping a call right before its response', () => {
    const body = toGeminiRequest(
      request([
        { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'f', args: {} } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'c1', name: 'f', response: { a: 1 } } }],
        },
        modelContent('Done.'),
      ]),
    );
    expect(body.contents.map((content) => content.role)).toEqual([
      'user',
      'model',
      'user',
      'model',
      'user',
    ]);
    expect(body.contents[0]!.parts).toEqual([{ text: LEADING_USER_TEXT }]);
    expect(body.contents[1]!.parts![0]!.functionCall).toMatchObject({ name: 'f' });
    expect(body.contents[2]!.parts![0]!.functionResponse).toMatchObject({ name: 'f' });
    expect(body.contents[4]!.parts).toEqual([{ text: CONTINUE_TEXT }]);
  });

  it('leaves a conversation that starts and ends with the user as it is', () => {
    const body = toGeminiRequest(
      request([userContent('hi'), modelContent('yo'), userContent('?')]),
    );
    expect(body.contents.map((content) => content.role)).toEqual(['user', 'model', 'user']);
  });
});
