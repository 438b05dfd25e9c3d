import { z } from 'zod';

import { FunctionTool, getText, LlmAgent, Runner, userContent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';

// A tool: typed arguments, validated before execute runs.
const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, forecast: 'sunny', celsius: 21 }),
});

// A scripted model: first it calls the tool, then it answers. No API key needed.
const model = new FakeModel([
  { functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
  'It is sunny and 21°C in Paris.',
]);

const agent = new LlmAgent({
  name: 'weather_agent',
  model,
  instruction: 'Answer weather questions.',
  tools: [getWeather],
});
const runner = new Runner({ appName: 'weather', agent, autoCreateSession: true });

for await (const event of runner.run({
  userId: 'u1',
  sessionId: 's1',
  newMessage: userContent('Weather in Paris?'),
})) {
  const part = event.content?.parts[0];
  const what = part?.functionCall
    ? `calls ${part.functionCall.name}(${JSON.stringify(part.functionCall.args)})`
    : part?.functionResponse
      ? `${part.functionResponse.name} returned ${JSON.stringify(part.functionResponse.response)}`
      : getText(event.content);
  console.log(`[${event.author}] ${what}`);
}
