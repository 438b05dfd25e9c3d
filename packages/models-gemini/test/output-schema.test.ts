import { describeGeminiRequest, startFakeGemini } from '@adk/fake-provider-servers';
import { outputSchemaAcceptance } from '@adk/fake-provider-servers/acceptance';
import { expect } from 'vitest';

import { createGemini } from '../src';

interface Body {
  generationConfig?: Record<string, unknown>;
  tools?: Array<{ functionDeclarations: Array<{ name: string }> }>;
}

outputSchemaAcceptance({
  provider: 'Gemini',
  startServer: startFakeGemini,
  describeRequest: describeGeminiRequest,
  createModel: (baseURL) => createGemini({ apiKey: 'test-key', baseURL })('gemini-2.5-flash'),
  expectStructuredRequest(request, { schema, tools }) {
    const body = request.body as Body;
    // Gemini's own structured-output fields: JSON mime type and the full JSON Schema.
    expect(body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect(body.generationConfig).not.toHaveProperty('responseSchema');
    expect((body.tools ?? []).flatMap((t) => t.functionDeclarations.map((d) => d.name))).toEqual(
      tools,
    );
  },
});
