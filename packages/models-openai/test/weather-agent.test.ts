import {
  EXPECTED_WEATHER_EVENTS,
  runWeatherAgent,
  WEATHER_SCRIPT,
} from '@adk/fake-provider-servers/acceptance';
import { describeOpenAIRequest, startFakeOpenAI } from '@adk/fake-provider-servers';
import { describe, expect, it } from 'vitest';

import { createOpenAI } from '../src';

describe('weather agent through Runner against the fake OpenAI server', () => {
  for (const stream of [false, true]) {
    it(`produces the expected events (stream: ${stream})`, async () => {
      const server = await startFakeOpenAI({ script: WEATHER_SCRIPT });
      try {
        const model = createOpenAI({ apiKey: 'test-key', baseURL: server.baseURL })(
          'openai/gpt-4o',
        );
        const run = await runWeatherAgent(model, stream);
        expect(run.events).toEqual(EXPECTED_WEATHER_EVENTS);
        if (stream) expect(run.partialCount).toBeGreaterThan(1);
        else expect(run.partialCount).toBe(0);
        // the tool result went back to the model, paired with the call the model made
        expect(server.requests).toHaveLength(2);
        expect(server.requests.every((request) => request.stream === stream)).toBe(true);
        const second = describeOpenAIRequest(server.requests[1]!);
        expect(second.toolNames).toEqual(['get_weather']);
        expect(second.toolResults).toHaveLength(1);
        expect(second.toolResults[0]!.response).toEqual({
          city: 'Paris',
          forecast: 'sunny',
          celsius: 21,
        });
        const callEvent = run.raw.find(
          (event) => !event.partial && event.content?.parts[0]?.functionCall,
        );
        const callId = callEvent!.content!.parts[0]!.functionCall!.id;
        expect(second.toolCalls[0]!.id ?? callId).toBe(callId);
        expect(second.systemInstruction).toContain('Answer weather questions.');
      } finally {
        await server.close();
      }
    });
  }
});
