import { modelContent, userContent, type LlmRequest } from '@adk/core';
import { describe, expect, it } from 'vitest';

import { LEADING_USER_TEXT, toAnthropicRequest, TRAILING_USER_TEXT } from '../src';

const request = (contents: LlmRequest['contents']): LlmRequest => ({
  model: 'claude-sonnet-4-5',
  contents,
  config: {},
});

describe('toAnthropicRequest turn order', () => {
  it('never ends with an assistant message, which the API would continue as a prefill', () => {
    const body = toAnthropicRequest(request([userContent('hi'), modelContent('Hello')]), {
      model: 'claude-sonnet-4-5',
      maxTokens: 1024,
    });
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[2]!.content).toEqual([{ type: 'text', text: TRAILING_USER_TEXT }]);
  });

  it('starts with a user message and keeps a call right before its result', () => {
    const body = toAnthropicRequest(
      request([
        { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'f', args: {} } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'c1', name: 'f', response: { a: 1 } } }],
        },
      ]),
      { model: 'claude-sonnet-4-5', maxTokens: 1024 },
    );
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.messages[0]!.content).toEqual([{ type: 'text', text: LEADING_USER_TEXT }]);
    expect(body.messages[1]!.content[0]).toMatchObject({ type: 'tool_use', id: 'c1' });
    expect(body.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'c1' });
  });
});
