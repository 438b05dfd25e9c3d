import {
  FunctionTool,
  InvalidArgumentError,
  LlmAgent,
  Runner,
  UnsupportedProviderToolError,
  codeExecutionTool,
  urlContextTool,
  userContent,
  webSearchTool,
  type Event,
  type LlmRequest,
} from '@adk/core';
import { MockLanguageModelV3, convertArrayToReadableStream } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { aiSdkModel, type AiSdkLanguageModel } from '../src';

type Parts = Array<Record<string, unknown>>;

function streamOf(parts: Parts): { stream: ReadableStream<never> } {
  return { stream: convertArrayToReadableStream(parts as never[]) };
}

const finish = {
  type: 'finish',
  finishReason: { unified: 'stop', raw: 'end_turn' },
  usage: {
    inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 5, text: 5, reasoning: 0 },
  },
};

/** A mock model of another specification version (the mock of `ai/test` is v3). */
function withVersion(mock: MockLanguageModelV3, version: 'v2' | 'v4'): AiSdkLanguageModel {
  Object.defineProperty(mock, 'specificationVersion', { value: version });
  return mock as unknown as AiSdkLanguageModel;
}

function request(config: LlmRequest['config'], model = 'm'): LlmRequest {
  return { model, contents: [userContent('Hi')], config };
}

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

async function collect(iterable: AsyncIterable<Event>): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of iterable) events.push(event);
  return events;
}

describe('thinking through the AI SDK', () => {
  it('keeps Anthropic thinking signatures and redacted thinking across a tool call, as the API requires', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'anthropic.messages',
      modelId: 'claude-sonnet-4-5',
      doStream: [
        streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'reasoning-start', id: '0' },
          { type: 'reasoning-delta', id: '0', delta: 'I should look up ' },
          { type: 'reasoning-delta', id: '0', delta: 'the weather.' },
          {
            type: 'reasoning-delta',
            id: '0',
            delta: '',
            providerMetadata: { anthropic: { signature: 'sig-1' } },
          },
          { type: 'reasoning-end', id: '0' },
          {
            type: 'reasoning-start',
            id: '1',
            providerMetadata: { anthropic: { redactedData: 'opaque' } },
          },
          { type: 'reasoning-end', id: '1' },
          {
            type: 'tool-call',
            toolCallId: 'toolu_1',
            toolName: 'weather',
            input: '{"city":"Paris"}',
          },
          { ...finish, finishReason: { unified: 'tool-calls', raw: 'tool_use' } },
        ]),
        streamOf([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't' },
          { type: 'text-delta', id: 't', delta: 'Sunny in Paris.' },
          { type: 'text-end', id: 't' },
          finish,
        ]),
      ],
    });
    const weather = new FunctionTool({
      name: 'weather',
      description: 'The weather of a city.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => ({ city, sky: 'sunny' }),
    });
    const agent = new LlmAgent({
      name: 'forecaster',
      model: aiSdkModel(mock as unknown as AiSdkLanguageModel),
      tools: [weather],
      generateContentConfig: { thinkingConfig: { thinkingBudget: 2000, includeThoughts: true } },
    });
    const runner = new Runner({ appName: 'ai-sdk-thinking', agent, autoCreateSession: true });
    const events = await collect(
      runner.run({
        userId: 'u',
        sessionId: 's',
        newMessage: userContent('Weather in Paris?'),
        runConfig: { streamingMode: 'sse' },
      }),
    );

    const first = mock.doStreamCalls[0]!;
    expect(first.providerOptions).toEqual({
      anthropic: { thinking: { type: 'enabled', budgetTokens: 2000 } },
    });
    const callEvent = events.find(
      (event) => !event.partial && event.content?.parts.some((p) => p.functionCall),
    );
    expect(callEvent?.content?.parts[0]).toMatchObject({
      text: 'I should look up the weather.',
      thought: true,
    });
    expect(callEvent?.content?.parts[1]).toMatchObject({
      text: '[reasoning not shown by the provider]',
      thought: true,
    });
    // The second turn sends both thinking blocks back with their metadata, before the tool call.
    const second = mock.doStreamCalls[1]!;
    const assistant = second.prompt.find((message) => message.role === 'assistant');
    expect(assistant?.content).toEqual([
      {
        type: 'reasoning',
        text: 'I should look up the weather.',
        providerOptions: { anthropic: { signature: 'sig-1' } },
      },
      { type: 'reasoning', text: '', providerOptions: { anthropic: { redactedData: 'opaque' } } },
      { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'weather', input: { city: 'Paris' } },
    ]);
    expect(events.at(-1)?.content?.parts).toEqual([{ text: 'Sunny in Paris.' }]);
  });

  it('keeps the provider metadata of reasoning and tool calls of a non-streamed answer (Gemini thought signatures)', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'google.generative-ai',
      modelId: 'gemini-3-pro',
      doGenerate: {
        content: [
          {
            type: 'reasoning',
            text: 'Plan.',
            providerMetadata: { google: { thoughtSignature: 'g-sig' } },
          },
          {
            type: 'tool-call',
            toolCallId: 'c1',
            toolName: 'lookup',
            input: '{}',
            providerMetadata: { google: { thoughtSignature: 'call-sig' } },
          },
        ],
        finishReason: { unified: 'tool-calls', raw: 'STOP' },
        usage: finish.usage,
        warnings: [],
      },
    });
    const model = aiSdkModel(mock as unknown as AiSdkLanguageModel);
    const config = { thinkingConfig: { thinkingLevel: 'HIGH' as const, includeThoughts: true } };
    const [response] = await all(model.generate(request(config), { stream: false }));
    expect(mock.doGenerateCalls[0]!.providerOptions).toEqual({
      google: { thinkingConfig: { thinkingLevel: 'high', includeThoughts: true } },
    });
    const parts = response!.content!.parts;
    expect(parts[0]).toMatchObject({ text: 'Plan.', thought: true });
    expect(parts[1]!.functionCall).toMatchObject({ id: 'c1', name: 'lookup' });

    // The parts come back in the next request with the same metadata as provider options.
    await all(
      model.generate(
        {
          model: 'm',
          contents: [
            userContent('Hi'),
            response!.content!,
            {
              role: 'user',
              parts: [{ functionResponse: { id: 'c1', name: 'lookup', response: { ok: true } } }],
            },
          ],
          config: {},
        },
        { stream: false },
      ),
    );
    const assistant = mock.doGenerateCalls[1]!.prompt.find((m) => m.role === 'assistant');
    expect(assistant?.content).toEqual([
      {
        type: 'reasoning',
        text: 'Plan.',
        providerOptions: { google: { thoughtSignature: 'g-sig' } },
      },
      {
        type: 'tool-call',
        toolCallId: 'c1',
        toolName: 'lookup',
        input: {},
        providerOptions: { google: { thoughtSignature: 'call-sig' } },
      },
    ]);
  });

  it("maps the thinking config per provider family, v4 reasoning included, the caller's providerOptions winning", async () => {
    const sent = async (
      provider: string,
      config: LlmRequest['config'],
      version?: 'v2' | 'v4',
    ): Promise<Record<string, unknown>> => {
      const mock = new MockLanguageModelV3({
        provider,
        doGenerate: {
          content: [],
          finishReason: { unified: 'stop', raw: undefined },
          usage: finish.usage,
          warnings: [],
        },
      });
      const model = aiSdkModel(
        version ? withVersion(mock, version) : (mock as unknown as AiSdkLanguageModel),
      );
      await all(model.generate(request(config), { stream: false }));
      return mock.doGenerateCalls[0] as unknown as Record<string, unknown>;
    };
    expect(
      (
        await sent('openai.responses', {
          thinkingConfig: { thinkingLevel: 'LOW', includeThoughts: true },
        })
      ).providerOptions,
    ).toEqual({
      openai: { reasoningEffort: 'low', reasoningSummary: 'auto' },
    });
    expect(
      (await sent('openai.chat', { thinkingConfig: { thinkingBudget: 20_000 } })).providerOptions,
    ).toEqual({
      openai: { reasoningEffort: 'high' },
    });
    expect(
      (await sent('amazon-bedrock', { thinkingConfig: { thinkingLevel: 'MEDIUM' } }))
        .providerOptions,
    ).toEqual({
      bedrock: { reasoningConfig: { type: 'enabled', budgetTokens: 10_000 } },
    });
    expect(
      (await sent('anthropic.messages', { thinkingConfig: { thinkingBudget: 0 } })).providerOptions,
    ).toEqual({
      anthropic: { thinking: { type: 'disabled' } },
    });
    const caller = await sent('anthropic.messages', {
      thinkingConfig: { thinkingBudget: 5000 },
      providerOptions: {
        anthropic: { thinking: { type: 'enabled', budgetTokens: 9000 } },
        other: { x: 1 },
      },
    });
    expect(caller.providerOptions).toEqual({
      anthropic: { thinking: { type: 'enabled', budgetTokens: 9000 } },
      other: { x: 1 },
    });
    const v4 = await sent('mistral.chat', { thinkingConfig: { thinkingLevel: 'MEDIUM' } }, 'v4');
    expect(v4.reasoning).toBe('medium');
    expect(v4.providerOptions).toBeUndefined();
    const v3 = await sent('mistral.chat', { thinkingConfig: { thinkingLevel: 'MEDIUM' } });
    expect(v3.reasoning).toBeUndefined();
  });
});

describe('sources through the AI SDK', () => {
  it('turns streamed url sources and provider web searches into grounding and citation metadata', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'anthropic.messages',
      doStream: streamOf([
        { type: 'stream-start', warnings: [] },
        {
          type: 'tool-call',
          toolCallId: 'srv_1',
          toolName: 'web_search',
          input: '{"query":"adk typescript"}',
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'srv_1',
          toolName: 'web_search',
          result: [],
          providerExecuted: true,
        },
        { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com/a', title: 'A' },
        { type: 'source', sourceType: 'url', id: 's2', url: 'https://docs.example.org/b' },
        { type: 'source', sourceType: 'url', id: 's1', url: 'https://example.com/a', title: 'A' },
        {
          type: 'source',
          sourceType: 'document',
          id: 'd1',
          mediaType: 'application/pdf',
          title: 'Spec',
          filename: 'spec.pdf',
        },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Found it.' },
        { type: 'text-end', id: 't' },
        finish,
      ]),
    });
    const model = aiSdkModel(mock as unknown as AiSdkLanguageModel);
    const responses = await all(
      model.generate(request({ providerTools: [{ type: 'webSearch' }] }), { stream: true }),
    );
    const final = responses.at(-1)!;
    expect(final.content?.parts).toEqual([{ text: 'Found it.' }]);
    expect(final.groundingMetadata).toEqual({
      webSearchQueries: ['adk typescript'],
      groundingChunks: [
        { web: { uri: 'https://example.com/a', title: 'A', domain: 'example.com' } },
        { web: { uri: 'https://docs.example.org/b', domain: 'docs.example.org' } },
      ],
    });
    expect(final.citationMetadata).toEqual({
      citations: [
        { uri: 'https://example.com/a', title: 'A' },
        { uri: 'https://docs.example.org/b' },
        { title: 'Spec', filename: 'spec.pdf' },
      ],
    });
  });

  it('reads sources of a non-streamed answer too', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'google.generative-ai',
      doGenerate: {
        content: [
          { type: 'text', text: 'Grounded.' },
          { type: 'source', sourceType: 'url', id: 'x', url: 'https://example.net/', title: 'Net' },
        ],
        finishReason: { unified: 'stop', raw: 'STOP' },
        usage: finish.usage,
        warnings: [],
      },
    });
    const model = aiSdkModel(mock as unknown as AiSdkLanguageModel);
    const [response] = await all(model.generate(request({}), { stream: false }));
    expect(response!.groundingMetadata?.groundingChunks).toEqual([
      { web: { uri: 'https://example.net/', title: 'Net', domain: 'example.net' } },
    ]);
    expect(response!.citationMetadata?.citations).toEqual([
      { uri: 'https://example.net/', title: 'Net' },
    ]);
  });
});

describe('provider tools through the AI SDK', () => {
  it("declares the provider tools of each family and sends them as the spec version's provider tools", async () => {
    const google = new MockLanguageModelV3({
      provider: 'google.generative-ai',
      doGenerate: {
        content: [],
        finishReason: { unified: 'stop', raw: undefined },
        usage: finish.usage,
        warnings: [],
      },
    });
    const model = aiSdkModel(google as unknown as AiSdkLanguageModel);
    expect(model.capabilities).toEqual({
      providerTools: ['webSearch', 'urlContext', 'codeExecution'],
      providerToolsWithFunctions: false,
    });
    await all(
      model.generate(
        request({
          providerTools: [{ type: 'webSearch' }, { type: 'urlContext' }, { type: 'codeExecution' }],
        }),
        { stream: false },
      ),
    );
    expect(google.doGenerateCalls[0]!.tools).toEqual([
      { type: 'provider', id: 'google.google_search', name: 'google_search', args: {} },
      { type: 'provider', id: 'google.url_context', name: 'url_context', args: {} },
      { type: 'provider', id: 'google.code_execution', name: 'code_execution', args: {} },
    ]);

    const anthropic = new MockLanguageModelV3({
      provider: 'anthropic.messages',
      doGenerate: {
        content: [],
        finishReason: { unified: 'stop', raw: undefined },
        usage: finish.usage,
        warnings: [],
      },
    });
    const v2 = aiSdkModel(withVersion(anthropic, 'v2'));
    expect(v2.capabilities).toEqual({
      providerTools: ['webSearch', 'codeExecution'],
      providerToolsWithFunctions: true,
    });
    await all(
      v2.generate(request({ providerTools: [{ type: 'webSearch', options: { maxUses: 2 } }] }), {
        stream: false,
      }),
    );
    expect(anthropic.doGenerateCalls[0]!.tools).toEqual([
      {
        type: 'provider-defined',
        id: 'anthropic.web_search_20250305',
        name: 'web_search',
        args: { maxUses: 2 },
      },
    ]);

    const openai = aiSdkModel(
      new MockLanguageModelV3({ provider: 'openai.responses' }) as unknown as AiSdkLanguageModel,
    );
    expect(openai.capabilities?.providerTools).toEqual(['webSearch', 'codeExecution']);
  });

  it("refuses at agent construction a provider tool the model's provider cannot take, and unknown capabilities", () => {
    const bedrock = aiSdkModel(
      new MockLanguageModelV3({ provider: 'amazon-bedrock' }) as unknown as AiSdkLanguageModel,
    );
    expect(bedrock.capabilities?.providerTools).toEqual([]);
    expect(() => new LlmAgent({ name: 'a', model: bedrock, tools: [webSearchTool()] })).toThrow(
      UnsupportedProviderToolError,
    );
    const anthropic = aiSdkModel(
      new MockLanguageModelV3({ provider: 'anthropic.messages' }) as unknown as AiSdkLanguageModel,
    );
    let error: unknown;
    try {
      new LlmAgent({ name: 'b', model: anthropic, tools: [urlContextTool()] });
    } catch (caught) {
      error = caught;
    }
    expect(UnsupportedProviderToolError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      toolType: 'urlContext',
      supported: ['webSearch', 'codeExecution'],
    });
    expect(
      () => new LlmAgent({ name: 'c', model: anthropic, tools: [codeExecutionTool()] }),
    ).not.toThrow();
    expect(() =>
      aiSdkModel(
        new MockLanguageModelV3({ provider: 'mistral.chat' }) as unknown as AiSdkLanguageModel,
        {
          capabilities: { providerTools: ['webSearch'] },
        },
      ),
    ).toThrow(InvalidArgumentError);
  });

  it('refuses at call time a provider tool the model cannot take when no agent checked it', async () => {
    const model = aiSdkModel(
      new MockLanguageModelV3({ provider: 'groq.chat' }) as unknown as AiSdkLanguageModel,
    );
    await expect(
      all(model.generate(request({ providerTools: [{ type: 'webSearch' }] }), { stream: false })),
    ).rejects.toSatisfy((error: unknown) => UnsupportedProviderToolError.isInstance(error));
  });

  it('turns Google code execution calls and results into executableCode and codeExecutionResult parts', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'google.generative-ai',
      doStream: streamOf([
        { type: 'stream-start', warnings: [] },
        {
          type: 'tool-call',
          toolCallId: 'x1',
          toolName: 'code_execution',
          input: '{"language":"PYTHON","code":"print(1)"}',
          providerExecuted: true,
        },
        {
          type: 'tool-result',
          toolCallId: 'x1',
          toolName: 'code_execution',
          result: { outcome: 'OUTCOME_OK', output: '1' },
          providerExecuted: true,
        },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Printed 1.' },
        { type: 'text-end', id: 't' },
        finish,
      ]),
    });
    const model = aiSdkModel(mock as unknown as AiSdkLanguageModel);
    const responses = await all(
      model.generate(request({ providerTools: [{ type: 'codeExecution' }] }), { stream: true }),
    );
    expect(responses.at(-1)!.content?.parts).toEqual([
      { executableCode: { language: 'PYTHON', code: 'print(1)' } },
      { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '1' } },
      { text: 'Printed 1.' },
    ]);
  });
});
