import {
  codeExecutionTool,
  LlmAgent,
  UnsupportedProviderToolError,
  webSearchTool,
} from '@adk/core';
import { startFakeOpenAI } from '@adk/fake-provider-servers';
import {
  runAgent,
  thinkingAcceptance,
  webSearchAcceptance,
} from '@adk/fake-provider-servers/acceptance';
import { describe, expect, it } from 'vitest';

import { createOpenAI } from '../src';

const createModel = (baseURL: string, name = 'o4-mini') =>
  createOpenAI({ apiKey: 'test-key', baseURL })(name);

interface Body {
  reasoning_effort?: string;
  web_search_options?: unknown;
  messages: Array<Record<string, unknown>>;
}

thinkingAcceptance({
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  createModel,
  signed: false,
  expectRequests(bodies) {
    const [first, second] = bodies as Body[];
    // A 2048-token budget is a low reasoning effort.
    expect(first!.reasoning_effort).toBe('low');
    expect(second!.reasoning_effort).toBe('low');
    // Chat Completions takes no reasoning back: the assistant turn is its tool call.
    expect(second!.messages[2]).toMatchObject({ role: 'assistant', content: null });
    expect(JSON.stringify(second!.messages)).not.toContain('The user wants the weather');
  },
});

webSearchAcceptance({
  provider: 'OpenAI',
  startServer: startFakeOpenAI,
  createModel: (baseURL) => createModel(baseURL, 'gpt-4o-search-preview'),
  citations: true,
  expectRequest(body) {
    expect((body as Body).web_search_options).toEqual({});
  },
});

describe('OpenAI reasoning effort and provider tools', () => {
  it('maps a thinking level to reasoning_effort, and passes search options through', async () => {
    const server = await startFakeOpenAI({ script: [{ text: 'a' }, { text: 'b' }] });
    try {
      await runAgent(
        new LlmAgent({
          name: 'effort',
          model: createModel(server.baseURL),
          generateContentConfig: { thinkingConfig: { thinkingLevel: 'HIGH' } },
        }),
        'hi',
        false,
      );
      await runAgent(
        new LlmAgent({
          name: 'searcher',
          model: createModel(server.baseURL, 'gpt-5-search-api'),
          tools: [webSearchTool({ search_context_size: 'high' })],
        }),
        'hi',
        false,
      );
      expect((server.requests[0]!.body as Body).reasoning_effort).toBe('high');
      expect((server.requests[1]!.body as Body).web_search_options).toEqual({
        search_context_size: 'high',
      });
    } finally {
      await server.close();
    }
  });

  it('a model without web search, or a tool Chat Completions lacks, fails when the agent is built', () => {
    const plain = createModel('http://127.0.0.1:9/v1', 'gpt-4o');
    expect(() => new LlmAgent({ name: 'a', model: plain, tools: [webSearchTool()] })).toThrow(
      UnsupportedProviderToolError,
    );
    const search = createModel('http://127.0.0.1:9/v1', 'gpt-4o-search-preview');
    expect(() => new LlmAgent({ name: 'b', model: search, tools: [codeExecutionTool()] })).toThrow(
      /cannot run the provider-side tool "codeExecution"/,
    );
  });
});
