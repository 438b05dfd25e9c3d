import { FunctionTool } from '@adk/core';
import { z } from 'zod';

const CONDITIONS = ['sunny', 'partly cloudy', 'light rain', 'overcast', 'windy', 'clear'] as const;

/** A stable pseudo-random number for a text, so the same city always gets the same weather. */
function hash(text: string): number {
  let value = 2166136261;
  for (const char of text.toLowerCase()) value = Math.imul(value ^ char.charCodeAt(0), 16777619);
  return value >>> 0;
}

/**
 * `get_weather`: the current weather of a city. Offline sample data (deterministic per city), so
 * the playground never needs a weather API.
 */
export const weatherTool = new FunctionTool({
  name: 'get_weather',
  description: 'Get the current weather (condition and temperature in Celsius) for a city.',
  parameters: z.object({ city: z.string().min(1).describe('City name, e.g. "Paris"') }),
  execute: ({ city }) => {
    const seed = hash(city);
    return {
      city,
      condition: CONDITIONS[seed % CONDITIONS.length],
      temperature_celsius: 4 + (seed % 24),
      source: 'playground sample data',
    };
  },
});
