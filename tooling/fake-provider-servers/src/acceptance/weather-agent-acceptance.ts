import type { Model } from '@adk/core';
import type { ConformanceRequestView } from '@adk/core/testing/vitest';
import { describe, expect, it } from 'vitest';

import type { FakeProviderServer, FakeServerOptions, RecordedRequest } from '../types';
import { EXPECTED_WEATHER_EVENTS, runWeatherAgent, WEATHER_SCRIPT } from './weather-scenario';

/** What {@link weatherAgentAcceptance} needs to know about one provider. */
export interface WeatherAgentAcceptanceOptions {
  /** Provider name in the test titles, e.g. `Gemini`. */
  provider: string;
  /** Starts this provider's fake server, e.g. `startFakeGemini`. */
  startServer(options: FakeServerOptions): Promise<FakeProviderServer>;
  /** Decodes a request that server recorded, e.g. `describeGeminiRequest`. */
  describeRequest(request: RecordedRequest): ConformanceRequestView;
  /** The provider's model, pointed at the fake server's `baseURL`. */
  createModel(baseURL: string): Model;
}

/**
 * Registers (with vitest) the weather-agent acceptance test of a provider package: the core
 * weather agent runs through a `Runner` against the provider's fake server, with streaming off and
 * on, and must produce {@link EXPECTED_WEATHER_EVENTS}, stream only when asked, and send the tool
 * result back paired with the call the model made.
 *
 * @example
 * ```ts
 * weatherAgentAcceptance({
 *   provider: 'Gemini',
 *   startServer: startFakeGemini,
 *   describeRequest: describeGeminiRequest,
 *   createModel: (baseURL) => createGemini({ apiKey: 'test-key', baseURL })('gemini-2.5-flash'),
 * });
 * ```
 */
export function weatherAgentAcceptance(options: WeatherAgentAcceptanceOptions): void {
  describe(`weather agent through Runner against the fake ${options.provider} server`, () => {
    for (const stream of [false, true]) {
      it(`produces the expected events (stream: ${stream})`, async () => {
        const server = await options.startServer({ script: WEATHER_SCRIPT });
        try {
          const run = await runWeatherAgent(options.createModel(server.baseURL), stream);
          expect(run.events).toEqual(EXPECTED_WEATHER_EVENTS);
          if (stream) expect(run.partialCount).toBeGreaterThan(1);
          else expect(run.partialCount).toBe(0);
          // the tool result went back to the model, paired with the call the model made
          expect(server.requests).toHaveLength(2);
          expect(server.requests.every((request) => request.stream === stream)).toBe(true);
          const second = options.describeRequest(server.requests[1]!);
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
}
