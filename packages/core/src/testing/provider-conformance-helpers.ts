import { expect } from 'vitest';

import type { Content } from '../content';
import type { LlmRequest, LlmResponse } from '../models';

const WEATHER_TOOL = {
  functionDeclarations: [
    {
      name: 'get_weather',
      description: 'Current weather of a city.',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      },
    },
  ],
};

/** A request declaring the weather tool. */
export function request(contents: Content[], extra: Partial<LlmRequest> = {}): LlmRequest {
  return { model: 'conformance', contents, config: { tools: [WEATHER_TOOL] }, ...extra };
}

/** Every response of a call. */
export async function collect(iterable: AsyncIterable<LlmResponse>): Promise<LlmResponse[]> {
  const out: LlmResponse[] = [];
  for await (const response of iterable) out.push(response);
  return out;
}

/** Checks the streaming contract and returns the final response. */
export function expectStreamingContract(responses: LlmResponse[]): LlmResponse {
  expect(responses.length).toBeGreaterThan(0);
  const finals = responses.filter((r) => !r.partial);
  expect(finals, 'exactly one non-partial response').toHaveLength(1);
  expect(responses[responses.length - 1], 'the final response comes last').toBe(finals[0]);
  return finals[0]!;
}
