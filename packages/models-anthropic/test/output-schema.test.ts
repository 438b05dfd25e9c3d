import { describeAnthropicRequest, startFakeAnthropic } from '@adk/fake-provider-servers';
import { outputSchemaAcceptance } from '@adk/fake-provider-servers/acceptance';
import { expect } from 'vitest';

import { createAnthropic } from '../src';

/** The forced tool carrying the structured answer (its wire name). */
const JSON_RESPONSE_TOOL = 'json_response';

interface Body {
  system?: unknown;
  tools?: Array<{ name: string; input_schema: unknown }>;
  tool_choice?: unknown;
}

outputSchemaAcceptance({
  provider: 'Anthropic',
  startServer: startFakeAnthropic,
  describeRequest: describeAnthropicRequest,
  createModel: (baseURL) => createAnthropic({ apiKey: 'test-key', baseURL })('claude-sonnet-4-5'),
  expectStructuredRequest(request, { schema, tools }) {
    const body = request.body as Body;
    const system = describeAnthropicRequest(request).systemInstruction ?? '';
    // The agent's schema is stated in the system instruction.
    expect(system).toContain('"celsius"');
    // Only agents without tools ask for a response schema (the model does not combine both).
    expect(tools).toEqual([]);
    // No JSON mode in the Messages API: one forced tool whose input is the answer.
    expect(body.tools).toEqual([
      expect.objectContaining({ name: JSON_RESPONSE_TOOL, input_schema: schema }),
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: JSON_RESPONSE_TOOL });
  },
  expectSetModelResponseRequest(request, { schema, tools }) {
    const body = request.body as Body;
    // The agent's tools and set_model_response, nothing forced: the model calls tools, then answers.
    expect(body.tools!.map((t) => t.name)).toEqual([...tools, 'set_model_response']);
    expect(body.tools!.at(-1)!.input_schema).toEqual(schema);
    expect(body.tool_choice).toBeUndefined();
  },
});
