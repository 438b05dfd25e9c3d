import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';

import {
  startFakeAnthropic,
  startFakeGemini,
  startFakeOpenAI,
  type FakeProviderServer,
  type FakeReply,
} from '../src';

/**
 * The fakes' thinking, web search and code execution answers, read by the official SDKs: what
 * the SDKs accept (and accumulate from a stream) is what the provider packages are tested with.
 */

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const search: FakeReply['webSearch'] = {
  queries: ['tallest building 2026'],
  sources: [
    { url: 'https://example.com/towers', title: 'Towers of the world' },
    { url: 'https://example.org/burj', title: 'Burj Khalifa' },
  ],
};
const answer = 'The Burj Khalifa is the tallest building.';

describe('provider-side tools and thinking, read by the official SDKs', () => {
  it('Gemini (@google/genai): grounding metadata and code execution parts, whole and streamed', async () => {
    const reply: FakeReply = {
      text: answer,
      webSearch: search,
      codeExecution: { code: 'print(828 * 2)', output: '1656\n' },
    };
    server = await startFakeGemini({ script: [reply, reply] });
    const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: server.url } });
    const params = {
      model: 'gemini-2.5-flash',
      contents: 'How tall?',
      config: { tools: [{ googleSearch: {} }, { codeExecution: {} }] },
    };
    const whole = await ai.models.generateContent(params);
    expect(whole.text).toBe(answer);
    expect(whole.executableCode).toBe('print(828 * 2)');
    expect(whole.codeExecutionResult).toBe('1656\n');
    const grounding = whole.candidates?.[0]?.groundingMetadata;
    expect(grounding?.webSearchQueries).toEqual(search.queries);
    expect(grounding?.groundingChunks?.map((chunk) => chunk.web?.uri)).toEqual([
      'https://example.com/towers',
      'https://example.org/burj',
    ]);
    expect(grounding?.groundingSupports?.[0]?.groundingChunkIndices).toEqual([0, 1]);
    expect(server.requests[0]!.body).toMatchObject({
      tools: [{ googleSearch: {} }, { codeExecution: {} }],
    });

    let text = '';
    let streamedGrounding: unknown;
    const codes: string[] = [];
    for await (const chunk of await ai.models.generateContentStream(params)) {
      text += chunk.text ?? '';
      if (chunk.executableCode) codes.push(chunk.executableCode);
      streamedGrounding ??= chunk.candidates?.[0]?.groundingMetadata;
    }
    expect(text).toBe(answer);
    expect(codes).toEqual(['print(828 * 2)']);
    expect(streamedGrounding).toEqual(grounding);
  });

  it('Anthropic (@anthropic-ai/sdk): thinking with its signature, web search blocks and citations', async () => {
    const reply: FakeReply = {
      thinking: 'The user wants the tallest building.',
      thinkingSignature: 'sig-abc',
      text: answer,
      webSearch: search,
    };
    server = await startFakeAnthropic({ script: [reply, reply] });
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    const params = {
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      thinking: { type: 'enabled' as const, budget_tokens: 2048 },
      tools: [{ type: 'web_search_20250305' as const, name: 'web_search' as const }],
      messages: [{ role: 'user' as const, content: 'How tall?' }],
    };
    const whole = await client.messages.create(params);
    const streamed = await client.messages.stream(params).finalMessage();
    for (const message of [whole, streamed]) {
      const types = message.content.map((block) => block.type);
      expect(types).toEqual(['thinking', 'server_tool_use', 'web_search_tool_result', 'text']);
      const [thinking, use, result, text] = message.content;
      expect(thinking).toMatchObject({ thinking: reply.thinking, signature: 'sig-abc' });
      expect(use).toMatchObject({ name: 'web_search', input: { query: search.queries[0] } });
      expect(result?.type === 'web_search_tool_result' && result.content).toMatchObject([
        { type: 'web_search_result', url: 'https://example.com/towers' },
        { type: 'web_search_result', url: 'https://example.org/burj' },
      ]);
      expect(text?.type === 'text' && text.text).toBe(answer);
      expect(text?.type === 'text' && text.citations?.map((c) => c.type)).toEqual([
        'web_search_result_location',
        'web_search_result_location',
      ]);
      expect(message.usage.server_tool_use?.web_search_requests).toBe(1);
    }
  });

  it('Anthropic (@anthropic-ai/sdk): redacted thinking and code execution blocks, streamed', async () => {
    const reply: FakeReply = {
      redactedThinking: 'EncryptedOpaqueData==',
      codeExecution: { code: 'print(1 + 1)', output: '2\n' },
      text: 'Two.',
    };
    server = await startFakeAnthropic({ script: [reply] });
    const client = new Anthropic({ apiKey: 'test-key', baseURL: server.url, maxRetries: 0 });
    const message = await client.beta.messages
      .stream({
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        betas: ['code-execution-2025-05-22'],
        tools: [{ type: 'code_execution_20250522', name: 'code_execution' }],
        messages: [{ role: 'user', content: '1 + 1?' }],
      })
      .finalMessage();
    expect(message.content).toMatchObject([
      { type: 'redacted_thinking', data: 'EncryptedOpaqueData==' },
      { type: 'server_tool_use', name: 'code_execution', input: { code: 'print(1 + 1)' } },
      {
        type: 'code_execution_tool_result',
        content: { type: 'code_execution_result', stdout: '2\n', return_code: 0 },
      },
      { type: 'text', text: 'Two.' },
    ]);
    expect(server.requests[0]!.headers['anthropic-beta']).toBe('code-execution-2025-05-22');
  });

  it('OpenAI (openai): url_citation annotations of a search model, whole and streamed', async () => {
    const reply: FakeReply = { text: answer, webSearch: search };
    server = await startFakeOpenAI({ script: [reply, reply] });
    const client = new OpenAI({ apiKey: 'test-key', baseURL: server.baseURL, maxRetries: 0 });
    const params = {
      model: 'gpt-4o-search-preview',
      web_search_options: { search_context_size: 'low' as const },
      messages: [{ role: 'user' as const, content: 'How tall?' }],
    };
    const whole = await client.chat.completions.create(params);
    const annotations = whole.choices[0]!.message.annotations;
    expect(annotations?.map((a) => a.url_citation.url)).toEqual([
      'https://example.com/towers',
      'https://example.org/burj',
    ]);
    expect(annotations?.[0]?.url_citation).toMatchObject({
      start_index: 0,
      end_index: answer.length,
    });

    let text = '';
    const streamedUrls: string[] = [];
    for await (const chunk of await client.chat.completions.create({ ...params, stream: true })) {
      const delta = chunk.choices[0]?.delta as
        | { content?: string | null; annotations?: Array<{ url_citation: { url: string } }> }
        | undefined;
      text += delta?.content ?? '';
      for (const annotation of delta?.annotations ?? [])
        streamedUrls.push(annotation.url_citation.url);
    }
    expect(text).toBe(answer);
    expect(streamedUrls).toEqual(annotations?.map((a) => a.url_citation.url));
  });
});
