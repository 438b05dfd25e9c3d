import {
  FunctionTool,
  getText,
  SET_MODEL_RESPONSE,
  LlmAgent,
  Runner,
  userContent,
  type Event,
  type JsonSchema,
} from '@adk/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { FakeReply, RecordedRequest } from '../types';
import type { WeatherAgentAcceptanceOptions } from './weather-agent-acceptance';

/** What {@link outputSchemaAcceptance} needs: the weather options plus the structured-output check. */
export interface OutputSchemaAcceptanceOptions extends WeatherAgentAcceptanceOptions {
  /**
   * Asserts (with `expect`) that a recorded request asks for structured output in the provider's
   * own fields, for the agent's JSON `schema`, next to the declared `tools` (none, or
   * `['get_weather']`).
   */
  expectStructuredRequest(
    request: RecordedRequest,
    expected: { schema: JsonSchema; tools: string[] },
  ): void;
  /**
   * Asserts that a recorded request of an agent with the declared `tools` (`['get_weather']`)
   * offers core's `set_model_response` tool in the provider's own wire format, its parameters
   * being the agent's `schema`, and asks for no structured output. Called when the model does not
   * declare `capabilities.responseSchemaWithTools`.
   */
  expectSetModelResponseRequest(
    request: RecordedRequest,
    expected: { schema: JsonSchema; tools: string[] },
  ): void;
}

/** The agents' output schema. `note` has a default, so a parsed value differs from the raw JSON. */
export const WEATHER_REPORT_SCHEMA = z.object({
  city: z.string(),
  celsius: z.number(),
  conditions: z.array(z.enum(['sunny', 'cloudy', 'rain'])),
  note: z.string().default('none'),
});

const ANSWER = { city: 'Paris', celsius: 21.5, conditions: ['sunny', 'cloudy'] };
const PARSED = { ...ANSWER, note: 'none' };
const WEATHER_CALL: FakeReply = { toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }] };

interface Run {
  events: Event[];
  state: Record<string, unknown>;
  toolRuns: number;
}

async function run(
  model: WeatherAgentAcceptanceOptions['createModel'],
  baseURL: string,
  tools: boolean,
  stream: boolean,
): Promise<{ run: Run; agent: LlmAgent }> {
  let toolRuns = 0;
  const getWeather = new FunctionTool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: () => {
      toolRuns++;
      return { celsius: 21.5, sky: 'sunny with clouds' };
    },
  });
  const agent = new LlmAgent({
    name: 'reporter',
    model: model(baseURL),
    instruction: 'Report the weather.',
    outputSchema: WEATHER_REPORT_SCHEMA,
    outputKey: 'report',
    tools: tools ? [getWeather] : [],
  });
  const runner = new Runner({ appName: 'structured', agent, autoCreateSession: true });
  const events: Event[] = [];
  try {
    for await (const event of runner.run({
      userId: 'u',
      sessionId: 's',
      newMessage: userContent('Weather report for Paris, please.'),
      runConfig: { streamingMode: stream ? 'sse' : 'none' },
    })) {
      events.push(event);
    }
    const session = await runner.sessionService.getSession({
      appName: 'structured',
      userId: 'u',
      sessionId: 's',
    });
    return { run: { events, state: { ...session!.state }, toolRuns }, agent };
  } finally {
    await runner.close();
  }
}

/**
 * Registers (with vitest) the structured-output acceptance test of a provider package: an
 * `LlmAgent` with `outputSchema` and `outputKey` (alone, and with a tool) runs through a `Runner`
 * against the provider's fake server, streaming off and on. The request must carry the
 * provider's structured-output fields, except with a tool on a model that does not declare
 * `capabilities.responseSchemaWithTools`: then it offers `set_model_response`, the model answers
 * by calling it, and invalid arguments end with `OUTPUT_VALIDATION_FAILED`; the final event must hold the JSON answer and the stored
 * state the parsed, validated value; an answer that does not match the schema, or is not JSON,
 * must end with an `OUTPUT_VALIDATION_FAILED` error event and save nothing.
 */
export function outputSchemaAcceptance(options: OutputSchemaAcceptanceOptions): void {
  describe(`outputSchema agent through Runner against the fake ${options.provider} server`, () => {
    for (const stream of [false, true]) {
      const mode = `(stream: ${stream})`;
      const withServer = async (
        script: FakeReply[],
        tools: boolean,
        check: (result: Run, requests: RecordedRequest[], schema: JsonSchema) => void,
      ) => {
        const server = await options.startServer({ script });
        try {
          const { run: result, agent } = await run(
            options.createModel,
            server.baseURL,
            tools,
            stream,
          );
          expect(server.requests.every((request) => request.stream === stream)).toBe(true);
          check(result, server.requests, agent.outputJsonSchema!);
          expect(server.pending).toBe(0);
        } finally {
          await server.close();
        }
      };

      it(`asks for the schema and stores the parsed answer ${mode}`, async () => {
        await withServer([{ json: ANSWER }], false, (result, requests, schema) => {
          expect(requests).toHaveLength(1);
          options.expectStructuredRequest(requests[0]!, { schema, tools: [] });
          const final = result.events.at(-1)!;
          expect(final.partial).toBeFalsy();
          expect(final.errorCode).toBeUndefined();
          expect(JSON.parse(getText(final.content))).toEqual(ANSWER);
          expect(final.actions.stateDelta.report).toEqual(PARSED);
          expect(result.state.report).toEqual(PARSED);
          expect(result.events.some((event) => event.partial)).toBe(stream);
        });
      });

      // Whether the model sends the schema next to the tools, or answers through set_model_response.
      const combines =
        options.createModel('http://127.0.0.1:9').capabilities?.responseSchemaWithTools === true;

      it.runIf(!combines)(
        `with a tool: calls it, then answers through set_model_response ${mode}`,
        async () => {
          const answerCall: FakeReply = {
            toolCalls: [{ name: SET_MODEL_RESPONSE, args: ANSWER }],
          };
          await withServer([WEATHER_CALL, answerCall], true, (result, requests, schema) => {
            expect(requests).toHaveLength(2);
            for (const request of requests) {
              options.expectSetModelResponseRequest(request, { schema, tools: ['get_weather'] });
              const view = options.describeRequest(request);
              expect(view.toolNames).toEqual(['get_weather', SET_MODEL_RESPONSE]);
              expect(view.systemInstruction).toContain(SET_MODEL_RESPONSE);
            }
            expect(result.toolRuns).toBe(1);
            const second = options.describeRequest(requests[1]!);
            expect(second.toolResults.map((r) => r.response)).toEqual([
              { celsius: 21.5, sky: 'sunny with clouds' },
            ]);
            // call, result, set_model_response call, its acknowledgement, the final answer.
            const complete = result.events.filter((event) => !event.partial);
            expect(complete).toHaveLength(5);
            const final = complete.at(-1)!;
            expect(final.errorCode).toBeUndefined();
            expect(JSON.parse(getText(final.content))).toEqual(ANSWER);
            expect(final.actions.stateDelta.report).toEqual(PARSED);
            expect(result.state.report).toEqual(PARSED);
          });
        },
      );

      it.runIf(!combines)(
        `set_model_response arguments that break the schema end with OUTPUT_VALIDATION_FAILED ${mode}`,
        async () => {
          const wrong = { city: 'Paris', celsius: 'warm', conditions: ['snow'] };
          const answerCall: FakeReply = { toolCalls: [{ name: SET_MODEL_RESPONSE, args: wrong }] };
          await withServer([answerCall], true, (result) => {
            expect(result.toolRuns).toBe(0);
            const last = result.events.at(-1)!;
            expect(last.errorCode).toBe('OUTPUT_VALIDATION_FAILED');
            expect(last.errorMessage).toMatch(/celsius/);
            expect(last.errorMessage).toMatch(/conditions/);
            expect(result.state).not.toHaveProperty('report');
          });
        },
      );

      it.runIf(combines)(
        `with a tool: calls it, then stores the parsed answer ${mode}`,
        async () => {
          await withServer([WEATHER_CALL, { json: ANSWER }], true, (result, requests, schema) => {
            expect(requests).toHaveLength(2);
            options.expectStructuredRequest(requests[0]!, { schema, tools: ['get_weather'] });
            options.expectStructuredRequest(requests[1]!, { schema, tools: ['get_weather'] });
            expect(result.toolRuns).toBe(1);
            const second = options.describeRequest(requests[1]!);
            expect(second.toolResults.map((r) => r.response)).toEqual([
              { celsius: 21.5, sky: 'sunny with clouds' },
            ]);
            expect(result.events.at(-1)!.actions.stateDelta.report).toEqual(PARSED);
            expect(result.state.report).toEqual(PARSED);
          });
        },
      );

      it(`an answer that breaks the schema ends with OUTPUT_VALIDATION_FAILED ${mode}`, async () => {
        const wrong = { city: 'Paris', celsius: 'warm', conditions: ['snow'] };
        await withServer([{ json: wrong }], false, (result) => {
          const last = result.events.at(-1)!;
          expect(last.errorCode).toBe('OUTPUT_VALIDATION_FAILED');
          expect(last.errorMessage).toMatch(/celsius/);
          expect(last.errorMessage).toMatch(/conditions/);
          expect(result.state).not.toHaveProperty('report');
        });
      });

      it(`an answer that is not JSON ends with OUTPUT_VALIDATION_FAILED ${mode}`, async () => {
        await withServer([WEATHER_CALL, { text: 'It is sunny in Paris.' }], true, (result) => {
          expect(result.toolRuns).toBe(1);
          const last = result.events.at(-1)!;
          expect(last.errorCode).toBe('OUTPUT_VALIDATION_FAILED');
          expect(last.errorMessage).toMatch(/not valid JSON/);
          expect(result.state).not.toHaveProperty('report');
        });
      });
    }
  });
}
