import {
  BuiltInPlanner,
  FunctionTool,
  LlmAgent,
  Runner,
  userContent,
  webSearchTool,
  type Event,
  type Model,
  type Part,
  type Tool,
} from '@adk/core';
import { describe, expect, it } from 'vitest';

import type { FakeProviderServer, FakeReply, FakeServerOptions } from '../types';

/** What {@link thinkingAcceptance} and {@link webSearchAcceptance} need of a provider. */
export interface ReachAcceptanceOptions {
  /** Provider name in the test titles, e.g. `Anthropic`. */
  provider: string;
  /** Starts this provider's fake server. */
  startServer(options: FakeServerOptions): Promise<FakeProviderServer>;
  /** The provider's model, pointed at the fake server's `baseURL`. */
  createModel(baseURL: string): Model;
}

/** The thinking turn of {@link thinkingAcceptance}: thoughts (signed), then a tool call. */
export const THINKING_SCRIPT: FakeReply[] = [
  {
    thinking: 'The user wants the weather; I should call the tool.',
    thinkingSignature: 'sig-turn-1',
    toolCalls: [{ name: 'get_weather', args: { city: 'Paris' } }],
  },
  { thinking: 'The tool says sunny.', thinkingSignature: 'sig-turn-2', text: 'Sunny in Paris.' },
];

/** The web search answer of {@link webSearchAcceptance}. */
export const WEB_SEARCH_REPLY: FakeReply = {
  text: 'The Burj Khalifa is the tallest building.',
  webSearch: {
    queries: ['tallest building'],
    sources: [
      { url: 'https://example.com/towers', title: 'Towers of the world' },
      { url: 'https://example.org/burj', title: 'Burj Khalifa' },
    ],
  },
};

/** The events of one run of `agent` through a `Runner`, streamed or not. */
export async function runAgent(agent: LlmAgent, text: string, stream: boolean): Promise<Event[]> {
  const runner = new Runner({ appName: 'reach', agent, autoCreateSession: true });
  const events: Event[] = [];
  try {
    for await (const event of runner.run({
      userId: 'u1',
      sessionId: `s-${stream ? 'sse' : 'none'}`,
      newMessage: userContent(text),
      runConfig: { streamingMode: stream ? 'sse' : 'none' },
    }))
      events.push(event);
  } finally {
    await runner.close();
  }
  return events;
}

function weatherTool(): Tool {
  return new FunctionTool({
    name: 'get_weather',
    description: 'Current weather of a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: () => ({ forecast: 'sunny' }),
  });
}

/**
 * Registers a provider's thinking acceptance test: an agent with a `BuiltInPlanner` (thoughts
 * included, a budget) and a tool runs through a `Runner`, streaming off and on; the model thinks,
 * calls the tool, thinks again and answers. The thoughts are stored as thought parts (before the
 * call, with their signature when `signed`), the answer is not a thought, and
 * `expectRequests(bodies)` checks the provider's wire requests (thinking settings on the first,
 * the signed thinking sent back before the call on the second).
 */
export function thinkingAcceptance(
  options: ReachAcceptanceOptions & {
    /** Whether the provider returns a signature with the thoughts (Anthropic, Gemini). */
    signed: boolean;
    expectRequests(bodies: unknown[]): void;
  },
): void {
  describe(`thinking through Runner against the fake ${options.provider} server`, () => {
    for (const stream of [false, true]) {
      it(`stores thoughts as thought parts and keeps them across the tool call (stream: ${stream})`, async () => {
        const server = await options.startServer({ script: THINKING_SCRIPT });
        try {
          const agent = new LlmAgent({
            name: 'thinker',
            model: options.createModel(server.baseURL),
            tools: [weatherTool()],
            planner: new BuiltInPlanner({
              thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 },
            }),
          });
          const events = await runAgent(agent, 'Weather in Paris?', stream);
          const finals = events.filter((event) => !event.partial);
          const parts = (event: Event | undefined): Part[] => event?.content?.parts ?? [];
          const callEvent = finals.find((event) => parts(event).some((p) => p.functionCall));
          const thought = parts(callEvent).find((part) => part.thought);
          expect(thought?.text).toBe(THINKING_SCRIPT[0]!.thinking);
          if (options.signed) expect(thought?.thoughtSignature).toBe('sig-turn-1');
          const answer = finals.at(-1)!;
          expect(parts(answer).filter((p) => !p.thought)).toEqual([{ text: 'Sunny in Paris.' }]);
          expect(parts(answer).find((p) => p.thought)?.text).toBe('The tool says sunny.');
          if (stream) {
            expect(
              events.some((event) => event.partial && parts(event).some((p) => p.thought)),
            ).toBe(true);
          }
          expect(server.requests).toHaveLength(2);
          options.expectRequests(server.requests.map((request) => request.body));
        } finally {
          await server.close();
        }
      });
    }
  });
}

/**
 * Registers a provider's web search acceptance test: an agent with `webSearchTool()` runs through
 * a `Runner`, streaming off and on, against a fake answer grounded on two pages; the final event
 * (and the stored one) carries the pages (`groundingMetadata.groundingChunks`) and, when
 * `citations`, the citations (`citationMetadata`). `expectRequest(body)` checks the provider's
 * search tool on the wire.
 */
export function webSearchAcceptance(
  options: ReachAcceptanceOptions & {
    /** Whether the provider sends citations of the answer text. */
    citations: boolean;
    expectRequest(body: unknown): void;
  },
): void {
  describe(`web search through Runner against the fake ${options.provider} server`, () => {
    for (const stream of [false, true]) {
      it(`puts the sources on the answer event (stream: ${stream})`, async () => {
        const server = await options.startServer({ script: [WEB_SEARCH_REPLY] });
        try {
          const agent = new LlmAgent({
            name: 'researcher',
            model: options.createModel(server.baseURL),
            tools: [webSearchTool()],
          });
          const events = await runAgent(agent, 'Tallest building?', stream);
          const answer = events.filter((event) => !event.partial).at(-1)!;
          expect(answer.content?.parts.filter((p) => !p.thought && p.text)).toEqual([
            { text: WEB_SEARCH_REPLY.text },
          ]);
          const uris = answer.groundingMetadata?.groundingChunks?.map((chunk) => chunk.web?.uri);
          expect(uris).toEqual(['https://example.com/towers', 'https://example.org/burj']);
          if (options.citations) {
            expect(answer.citationMetadata?.citations?.map((c) => c.uri)).toEqual(uris);
          }
          expect(server.requests).toHaveLength(1);
          options.expectRequest(server.requests[0]!.body);
        } finally {
          await server.close();
        }
      });
    }
  });
}
