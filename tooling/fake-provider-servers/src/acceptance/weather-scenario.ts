import {
  FunctionTool,
  getText,
  LlmAgent,
  Runner,
  userContent,
  type Event,
  type Model,
} from '@adk/core';

import type { FakeReply } from '../types';

/** The two replies a fake server needs for {@link runWeatherAgent}: a tool call, then the answer. */
export const WEATHER_SCRIPT: FakeReply[] = [
  { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] },
  {
    text: 'It is sunny and 21°C in Paris.',
    textChunks: ['It is sunny', ' and 21°C', ' in Paris.'],
  },
];

/** A provider-neutral view of a stored event: author and what it carries, without ids or times. */
export type NormalisedEvent =
  | { author: string; functionCall: { name: string; args: unknown } }
  | { author: string; functionResponse: { name: string; response: unknown } }
  | { author: string; text: string };

/** What {@link runWeatherAgent} observed. */
export interface WeatherRun {
  /** The non-partial events, normalised. */
  events: NormalisedEvent[];
  /** Number of partial events yielded. */
  partialCount: number;
  /** Every raw event, partial ones included. */
  raw: Event[];
}

/**
 * Runs the core weather example (an `LlmAgent` with one `get_weather` tool) through a `Runner`
 * against `model`, with streaming on or off, and returns its events normalised so that runs
 * against different providers and modes can be compared.
 */
export async function runWeatherAgent(model: Model, stream: boolean): Promise<WeatherRun> {
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: (args) => ({ city: (args as { city: string }).city, forecast: 'sunny', celsius: 21 }),
  });
  const agent = new LlmAgent({
    name: 'weather_agent',
    model,
    instruction: 'Answer weather questions.',
    tools: [getWeather],
  });
  const runner = new Runner({ appName: 'weather', agent, autoCreateSession: true });
  const raw: Event[] = [];
  try {
    for await (const event of runner.run({
      userId: 'u1',
      sessionId: `s-${stream ? 'sse' : 'none'}`,
      newMessage: userContent('Weather in Paris?'),
      runConfig: { streamingMode: stream ? 'sse' : 'none' },
    })) {
      raw.push(event);
    }
  } finally {
    await runner.close();
  }
  const events = raw.filter((event) => !event.partial).flatMap(normalise);
  return { events, partialCount: raw.filter((event) => event.partial).length, raw };
}

function normalise(event: Event): NormalisedEvent[] {
  const out: NormalisedEvent[] = [];
  for (const part of event.content?.parts ?? []) {
    if (part.functionCall) {
      out.push({
        author: event.author,
        functionCall: { name: part.functionCall.name, args: part.functionCall.args },
      });
    } else if (part.functionResponse) {
      out.push({
        author: event.author,
        functionResponse: {
          name: part.functionResponse.name,
          response: part.functionResponse.response,
        },
      });
    }
  }
  const text = getText(event.content);
  if (text) out.push({ author: event.author, text });
  return out;
}

/** The normalised events every provider must produce for the weather scenario. */
export const EXPECTED_WEATHER_EVENTS: NormalisedEvent[] = [
  { author: 'weather_agent', functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
  {
    author: 'weather_agent',
    functionResponse: {
      name: 'get_weather',
      response: { city: 'Paris', forecast: 'sunny', celsius: 21 },
    },
  },
  { author: 'weather_agent', text: 'It is sunny and 21°C in Paris.' },
];
