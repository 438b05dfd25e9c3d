import { describeOpenAIRequest, startFakeOpenAI } from '@adk/fake-provider-servers';
import { outputSchemaAcceptance } from '@adk/fake-provider-servers/acceptance';
import { describe, expect, it } from 'vitest';

import { createOpenAI } from '../src';

interface Body {
  response_format?: unknown;
  tools?: Array<{ type: string; function: { name: string; parameters?: unknown } }>;
}

function expectStructuredRequest(
  request: { body: unknown },
  { schema, tools }: { schema: unknown; tools: string[] },
) {
  const body = request.body as Body;
  expect(body.response_format).toEqual({
    type: 'json_schema',
    json_schema: { name: 'response', schema },
  });
  expect((body.tools ?? []).map((t) => t.function.name)).toEqual(tools);
}

// The OpenAI API (declared here for the fake server's URL): response_format next to tools.
outputSchemaAcceptance({
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  describeRequest: describeOpenAIRequest,
  createModel: (baseURL) =>
    createOpenAI({ apiKey: 'test-key', baseURL, responseSchemaWithTools: true })('gpt-4o'),
  expectStructuredRequest,
  expectSetModelResponseRequest() {
    throw new Error('the OpenAI API combines response_format with tools');
  },
});

// Any other compatible endpoint (the default there): set_model_response with tools.
outputSchemaAcceptance({
  provider: 'OpenAI-compatible',
  startServer: startFakeOpenAI,
  describeRequest: describeOpenAIRequest,
  createModel: (baseURL) => createOpenAI({ apiKey: 'test-key', baseURL })('gpt-4o'),
  expectStructuredRequest,
  expectSetModelResponseRequest(request, { schema, tools }) {
    const body = request.body as Body;
    expect(body).not.toHaveProperty('response_format');
    expect((body.tools ?? []).map((t) => t.function.name)).toEqual([
      ...tools,
      'set_model_response',
    ]);
    expect(body.tools!.at(-1)!.function.parameters).toEqual(schema);
  },
});

describe('OpenAI capabilities', () => {
  it('declare responseSchemaWithTools for the OpenAI API, not for other base URLs by default', () => {
    const combines = (settings: Parameters<typeof createOpenAI>[0]) =>
      createOpenAI({ apiKey: 'k', ...settings })('gpt-4o').capabilities.responseSchemaWithTools;
    expect(combines({ baseURL: 'https://api.openai.com/v1' })).toBe(true);
    expect(combines({ baseURL: 'http://127.0.0.1:11434/v1' })).toBe(false);
    expect(combines({ baseURL: 'http://127.0.0.1:11434/v1', responseSchemaWithTools: true })).toBe(
      true,
    );
    expect(combines({ baseURL: 'https://api.openai.com/v1', responseSchemaWithTools: false })).toBe(
      false,
    );
  });
});
