import { describeOpenAIRequest, startFakeOpenAI } from '@adk/fake-provider-servers';
import { outputSchemaAcceptance } from '@adk/fake-provider-servers/acceptance';
import { expect } from 'vitest';

import { createOpenAI } from '../src';

interface Body {
  response_format?: unknown;
  tools?: Array<{ type: string; function: { name: string } }>;
}

outputSchemaAcceptance({
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  describeRequest: describeOpenAIRequest,
  createModel: (baseURL) => createOpenAI({ apiKey: 'test-key', baseURL })('gpt-4o'),
  expectStructuredRequest(request, { schema, tools }) {
    const body = request.body as Body;
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'response', schema },
    });
    expect((body.tools ?? []).map((t) => t.function.name)).toEqual(tools);
  },
});
