import { describeGeminiRequest, startFakeGemini } from '@adk/fake-provider-servers';
import { outputSchemaAcceptance } from '@adk/fake-provider-servers/acceptance';
import { describe, expect, it } from 'vitest';

import { createGemini, geminiMajorVersion } from '../src';

interface Body {
  generationConfig?: Record<string, unknown>;
  tools?: Array<{ functionDeclarations: Array<{ name: string; parametersJsonSchema?: unknown }> }>;
}

const declarations = (body: Body) => (body.tools ?? []).flatMap((t) => t.functionDeclarations);

// The Gemini API: a response schema is not combined with tools (set_model_response instead).
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
    expect(declarations(body).map((d) => d.name)).toEqual(tools);
  },
  expectSetModelResponseRequest(request, { schema, tools }) {
    const body = request.body as Body;
    expect(body.generationConfig ?? {}).not.toHaveProperty('responseMimeType');
    expect(body.generationConfig ?? {}).not.toHaveProperty('responseJsonSchema');
    expect(declarations(body).map((d) => d.name)).toEqual([...tools, 'set_model_response']);
    expect(declarations(body).at(-1)!.parametersJsonSchema).toEqual(schema);
  },
});

// Gemini 3 on Vertex AI combines a response schema with function calling.
outputSchemaAcceptance({
  provider: 'Gemini 3 on Vertex AI',
  startServer: startFakeGemini,
  describeRequest: describeGeminiRequest,
  createModel: (baseURL) =>
    // Vertex AI express mode (an API key): `/v1/publishers/google/models/...`.
    createGemini({
      apiKey: 'test-key',
      baseURL: baseURL.replace(/\/v1beta$/, '/v1'),
      vertexai: true,
    })('gemini-3-pro-preview'),
  expectStructuredRequest(request, { schema, tools }) {
    const body = request.body as Body;
    expect(body.generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
    });
    expect(declarations(body).map((d) => d.name)).toEqual(tools);
  },
  expectSetModelResponseRequest() {
    throw new Error('Gemini 3 on Vertex AI combines a response schema with tools');
  },
});

describe('Gemini capabilities', () => {
  it('declare responseSchemaWithTools for Gemini 3 and later on Vertex AI only', () => {
    const api = createGemini({ apiKey: 'k' });
    const vertex = createGemini({ apiKey: 'k', vertexai: true });
    const combines = (provider: typeof api, name: string) =>
      provider(name).capabilities.responseSchemaWithTools;
    expect(combines(vertex, 'gemini-3-pro-preview')).toBe(true);
    expect(combines(vertex, 'gemini-3.1-flash')).toBe(true);
    expect(combines(vertex, 'gemini-10-ultra')).toBe(true);
    expect(combines(vertex, 'gemini-2.5-flash')).toBe(false);
    expect(combines(vertex, 'gemma-3-27b-it')).toBe(false);
    expect(combines(api, 'gemini-3-pro-preview')).toBe(false);
    expect(combines(api, 'gemini-2.5-flash')).toBe(false);
  });

  it('read the version of plain, prefixed and resource-path ids', () => {
    expect(geminiMajorVersion('gemini-2.5-flash')).toBe(2);
    expect(geminiMajorVersion('gemini-3-pro-preview')).toBe(3);
    expect(
      geminiMajorVersion('projects/p/locations/l/publishers/google/models/gemini-3-flash'),
    ).toBe(3);
    expect(geminiMajorVersion('gemini-exp-1206')).toBeUndefined();
    expect(geminiMajorVersion('gemma-3-27b-it')).toBeUndefined();
  });
});
