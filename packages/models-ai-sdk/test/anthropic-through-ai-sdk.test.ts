import {
  codeExecutionTool,
  FunctionTool,
  LlmAgent,
  Runner,
  userContent,
  webSearchTool,
  type Event,
} from '@adk/core';
import { startFakeAnthropic, type FakeProviderServer } from '@adk/fake-provider-servers';
import { createAnthropic } from '@ai-sdk/anthropic';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { aiSdkModel, type AiSdkLanguageModel } from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(agent: LlmAgent | Runner, text: string): Promise<Event[]> {
  const runner =
    agent instanceof Runner
      ? agent
      : new Runner({ appName: 'ai-sdk-anthropic', agent, autoCreateSession: true });
  const events: Event[] = [];
  for await (const event of runner.run({
    userId: 'u',
    sessionId: 's',
    newMessage: userContent(text),
    runConfig: { streamingMode: 'sse' },
  })) {
    events.push(event);
  }
  return events;
}

type Block = { type: string; [key: string]: unknown };
type Body = {
  thinking?: unknown;
  tools?: Block[];
  messages: Array<{ role: string; content: Block[] | string }>;
};

describe('@ai-sdk/anthropic through the adapter, against the fake Anthropic server', () => {
  it('sends extended thinking and sends the signed and redacted thinking blocks back with the tool result', async () => {
    server = await startFakeAnthropic({
      script: [
        {
          thinking: 'Paris weather needs the tool.',
          thinkingSignature: 'sig-paris',
          toolCalls: [{ id: 'toolu_01', name: 'weather', args: { city: 'Paris' } }],
        },
        { redactedThinking: 'encrypted-blob', text: 'Sunny in Paris.' },
        { text: 'Still sunny.' },
      ],
    });
    const anthropic = createAnthropic({ apiKey: 'test-key', baseURL: server.baseURL });
    const weather = new FunctionTool({
      name: 'weather',
      description: 'The weather of a city.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => ({ city, sky: 'sunny' }),
    });
    const agent = new LlmAgent({
      name: 'forecaster',
      model: aiSdkModel(anthropic('claude-sonnet-4-5') as AiSdkLanguageModel),
      tools: [weather],
      generateContentConfig: { thinkingConfig: { thinkingBudget: 2048 } },
    });
    const runner = new Runner({ appName: 'ai-sdk-anthropic', agent, autoCreateSession: true });
    const events = await run(runner, 'Weather in Paris?');
    expect(events.at(-1)?.content?.parts.at(-1)).toEqual({ text: 'Sunny in Paris.' });

    const first = server.requests[0]!.body as Body;
    expect(first.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    const second = server.requests[1]!.body as Body;
    const assistant = second.messages.find((message) => message.role === 'assistant');
    expect(assistant?.content).toEqual([
      { type: 'thinking', thinking: 'Paris weather needs the tool.', signature: 'sig-paris' },
      expect.objectContaining({ type: 'tool_use', id: 'toolu_01', name: 'weather' }),
    ]);

    // The next turn sends the redacted block back as it came.
    await run(runner, 'And now?');
    const third = server.requests[2]!.body as Body;
    const answers = third.messages.filter((message) => message.role === 'assistant');
    expect(answers.at(-1)?.content).toEqual([
      { type: 'redacted_thinking', data: 'encrypted-blob' },
      expect.objectContaining({ type: 'text', text: 'Sunny in Paris.' }),
    ]);
  });

  it('sends web search as the server tool and lands its sources and queries on the event', async () => {
    server = await startFakeAnthropic({
      script: [
        {
          webSearch: {
            queries: ['adk typescript'],
            sources: [{ url: 'https://example.com/adk', title: 'ADK' }],
          },
          text: 'ADK has a TypeScript port.',
        },
      ],
    });
    const anthropic = createAnthropic({ apiKey: 'test-key', baseURL: server.baseURL });
    const agent = new LlmAgent({
      name: 'researcher',
      model: aiSdkModel(anthropic('claude-sonnet-4-5') as AiSdkLanguageModel),
      tools: [webSearchTool({ maxUses: 2 })],
    });
    const events = await run(agent, 'Is there an ADK for TypeScript?');
    const body = server.requests[0]!.body as Body;
    expect(body.tools).toEqual([
      expect.objectContaining({ type: 'web_search_20250305', name: 'web_search', max_uses: 2 }),
    ]);
    const final = events.at(-1)!;
    expect(final.content?.parts.map((part) => part.text).join('')).toContain('TypeScript port');
    expect(final.groundingMetadata?.webSearchQueries).toEqual(['adk typescript']);
    expect(final.groundingMetadata?.groundingChunks).toEqual([
      { web: { uri: 'https://example.com/adk', title: 'ADK', domain: 'example.com' } },
    ]);
    expect(final.citationMetadata?.citations).toContainEqual(
      expect.objectContaining({ uri: 'https://example.com/adk' }),
    );
  });

  it('sends code execution as the server tool and lands the code and its result as parts', async () => {
    server = await startFakeAnthropic({
      script: [
        {
          codeExecution: { code: 'print(6 * 7)', output: '42\n' },
          text: 'The answer is 42.',
        },
      ],
    });
    const anthropic = createAnthropic({ apiKey: 'test-key', baseURL: server.baseURL });
    const agent = new LlmAgent({
      name: 'calculator',
      model: aiSdkModel(anthropic('claude-sonnet-4-5') as AiSdkLanguageModel),
      tools: [codeExecutionTool()],
    });
    const events = await run(agent, 'What is 6 times 7?');
    const body = server.requests[0]!.body as Body;
    expect(body.tools).toEqual([
      expect.objectContaining({ type: 'code_execution_20250522', name: 'code_execution' }),
    ]);
    const parts = events.at(-1)!.content!.parts;
    expect(parts).toContainEqual({ executableCode: { language: 'PYTHON', code: 'print(6 * 7)' } });
    expect(parts).toContainEqual({
      codeExecutionResult: { outcome: 'OUTCOME_OK', output: '42\n' },
    });
    expect(parts.at(-1)).toEqual({ text: 'The answer is 42.' });
  });
});
