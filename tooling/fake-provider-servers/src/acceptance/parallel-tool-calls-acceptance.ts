import { FunctionTool, getText, LlmAgent, Runner, userContent, type Event } from '@adk/core';
import { describe, expect, it } from 'vitest';

import type { FakeReply, FakeToolCall } from '../types';
import type { WeatherAgentAcceptanceOptions } from './weather-agent-acceptance';

/** The parallel calls of {@link parallelToolCallsAcceptance}: same tool thrice, another once. */
export const PARALLEL_TOOL_CALLS: FakeToolCall[] = [
  { name: 'get_weather', args: { city: 'Paris', days: 3, units: { temp: 'c' } } },
  { name: 'get_weather', args: { city: 'São Paulo — "SP"', days: 1, units: { temp: 'f' } } },
  { name: 'get_time', args: { zone: 'Asia/Tōkyō', iso: true } },
  { name: 'get_weather', args: { city: 'Oslo', days: 10, units: { temp: 'c' } } },
];

/**
 * Registers (with vitest) the parallel-tool-calls acceptance test of a provider package: a model
 * answer with four parallel calls (arguments streamed in 3-character pieces, fragments of
 * different calls interleaved where the provider's format allows it, bytes delivered 5 at a
 * time) runs through a `Runner`, streaming off and on. Every call must run exactly once, in
 * order, with its own arguments, and the next request must send four results, each paired with
 * its call. Guards against the "only the last of N streamed calls is kept" class of bugs.
 */
export function parallelToolCallsAcceptance(options: WeatherAgentAcceptanceOptions): void {
  describe(`parallel tool calls through Runner against the fake ${options.provider} server`, () => {
    for (const stream of [false, true]) {
      it(`runs each of ${PARALLEL_TOOL_CALLS.length} calls once, paired with its result (stream: ${stream})`, async () => {
        const script: FakeReply[] = [
          {
            toolCalls: PARALLEL_TOOL_CALLS,
            argsChunkSize: 3,
            interleaveToolCalls: true,
            faults: { byteChunkSize: 5 },
          },
          { text: 'All four done.' },
        ];
        const server = await options.startServer({ script });
        const received: Array<[string, unknown]> = [];
        const tool = (name: string) =>
          new FunctionTool({
            name,
            description: `The ${name} tool.`,
            parameters: { type: 'object' },
            execute: (args) => {
              received.push([name, args]);
              return { call: received.length };
            },
          });
        const agent = new LlmAgent({
          name: 'parallel_agent',
          model: options.createModel(server.baseURL),
          tools: [tool('get_weather'), tool('get_time')],
        });
        const runner = new Runner({ appName: 'parallel', agent, autoCreateSession: true });
        const events: Event[] = [];
        try {
          for await (const event of runner.run({
            userId: 'u',
            sessionId: `s-${stream}`,
            newMessage: userContent('Four lookups, please.'),
            runConfig: { streamingMode: stream ? 'sse' : 'none' },
          })) {
            events.push(event);
          }
          expect(events.filter((e) => e.errorCode)).toEqual([]);
          expect(received).toEqual(PARALLEL_TOOL_CALLS.map((call) => [call.name, call.args]));
          expect(getText(events.at(-1)!.content)).toBe('All four done.');
          expect(server.requests).toHaveLength(2);
          const second = options.describeRequest(server.requests[1]!);
          expect(second.toolCalls.map((call) => [call.name, call.args])).toEqual(
            PARALLEL_TOOL_CALLS.map((call) => [call.name, call.args]),
          );
          expect(second.toolResults.map((result) => result.response)).toEqual([
            { call: 1 },
            { call: 2 },
            { call: 3 },
            { call: 4 },
          ]);
          second.toolResults.forEach((result, index) => {
            expect(result.id).toBe(second.toolCalls[index]!.id);
          });
        } finally {
          await runner.close();
          await server.close();
        }
      });
    }
  });
}
