import { writeFile } from 'node:fs/promises';

import { FunctionTool, LlmAgent } from '@adk/core';
import { FakeModel } from '@adk/core/testing';
import { evaluate, formatOutcomeTable } from '@adk/eval';
import { z } from 'zod';

// An eval set in Python ADK's format (what `adk web` writes and `adk eval` reads).
await writeFile(
  'weather.evalset.json',
  JSON.stringify({
    eval_set_id: 'weather',
    eval_cases: [
      {
        eval_id: 'paris',
        conversation: [
          {
            user_content: { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
            final_response: { role: 'model', parts: [{ text: 'It is sunny in Paris.' }] },
            intermediate_data: { tool_uses: [{ name: 'get_weather', args: { city: 'Paris' } }] },
          },
        ],
      },
    ],
  }),
);

const getWeather = new FunctionTool({
  name: 'get_weather',
  description: 'Current weather of a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, sky: 'sunny' }),
});
// A scripted model keeps the example offline; use any provider's model instead.
const model = new FakeModel([
  { functionCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
  'It is sunny in Paris.',
]);
const agent = new LlmAgent({ name: 'weather', model, tools: [getWeather] });

// Python's default criteria: tool_trajectory_avg_score 1.0, response_match_score 0.8.
const outcome = await evaluate(agent, 'weather.evalset.json');
console.log(formatOutcomeTable(outcome));
process.exitCode = outcome.passed ? 0 : 1;
