import { z } from 'zod';

import { FunctionTool, LlmAgent, type LlmRequest } from '@adk/core';
import { FakeModel, type FakeStep } from '@adk/core/testing';

/**
 * A deterministic weather agent for the tests: asked about a city it calls `get_weather`, then
 * answers from the tool's result; anything else gets a greeting. Streamed answers come in chunks.
 */
export function weatherModel(options: { stream?: boolean; name?: string } = {}): FakeModel {
  const answer = (request: LlmRequest): FakeStep => {
    const last = request.contents.at(-1);
    const response = last?.parts.find((p) => p.functionResponse)?.functionResponse;
    if (response) {
      const text = `It is ${String(response.response.forecast)} and ${String(response.response.celsius)} degrees in ${String(response.response.city)}.`;
      return options.stream ? [text.slice(0, 10), text.slice(10)] : text;
    }
    const question = last?.parts.map((p) => p.text ?? '').join('') ?? '';
    const city = /weather in (\w+)/i.exec(question)?.[1];
    if (city) return { functionCalls: [{ name: 'get_weather', args: { city } }] };
    return 'Hello! Ask me about the weather.';
  };
  return new FakeModel({
    name: options.name ?? 'fake-weather',
    responses: (request) => answer(request),
  });
}

/** The tool of the weather agent. */
export const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, forecast: 'sunny', celsius: 21 }),
});

/** A weather agent over `model`. */
export function weatherAgent(model: FakeModel | LlmAgent['model'] = weatherModel()): LlmAgent {
  return new LlmAgent({
    name: 'weather',
    model,
    instruction: 'Answer weather questions.',
    tools: [getWeather],
  });
}
