import { getFunctionCalls, getText, ModelRegistry } from '@adk/core';
import {
  readFixture,
  startFakeOpenAI,
  type FakeProviderServer,
  type FakeReply,
} from '@adk/fake-provider-servers';
import { ask, collect, collectUntilError } from '@adk/fake-provider-servers/acceptance';
import { afterEach, describe, expect, it } from 'vitest';

import {
  CircuitOpenError,
  createOpenAI,
  MissingApiKeyError,
  ModelApiError,
  ModelStreamError,
  OpenAIModel,
  registerOpenAI,
  type OpenAISettings,
} from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: FakeReply[], settings: OpenAISettings = {}, name = 'openai/gpt-4o') {
  server = await startFakeOpenAI({ script });
  const delays: number[] = [];
  const openai = createOpenAI({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    ...settings,
    retry: { sleep: async (ms) => void delays.push(ms), ...settings.retry },
  });
  return { server, model: openai(name), delays };
}

const raw = (body: string, contentType = 'application/json', status = 200) => ({
  raw: { status, body, headers: { 'content-type': contentType } },
});
const sse = (chunks: unknown[]) =>
  raw(
    chunks.map((c) => `data: ${typeof c === 'string' ? c : JSON.stringify(c)}\n\n`).join(''),
    'text/event-stream',
  );

describe('Chat Completions request mapping', () => {
  it('sends the system message first, tool_calls, tool messages with tool_call_id, tools and options', async () => {
    const { server, model } = await setup([{ text: 'ok' }], { organization: 'org-1' });
    await collect(
      model.generate(
        {
          model: 'openai/gpt-4o',
          systemInstruction: 'Be brief.',
          contents: [
            {
              role: 'user',
              parts: [
                { text: 'Weather here?' },
                { inlineData: { mimeType: 'image/jpeg', data: '/9j/' } },
              ],
            },
            {
              role: 'model',
              parts: [
                { text: 'thinking...', thought: true },
                { text: 'Checking.' },
                { functionCall: { id: 'call_a', name: 'get_weather', args: { city: 'Paris' } } },
                { functionCall: { name: 'get_time', args: {} } },
              ],
            },
            {
              role: 'user',
              parts: [
                { functionResponse: { id: 'call_a', name: 'get_weather', response: { t: 21 } } },
                { functionResponse: { name: 'get_time', response: { now: '12:00' } } },
                { text: 'And tomorrow?' },
              ],
            },
          ],
          config: {
            temperature: 0,
            maxOutputTokens: 50,
            stopSequences: ['END'],
            seed: 7,
            responseSchema: { type: 'object' },
            toolChoice: { name: 'get_weather' },
            tools: [
              {
                functionDeclarations: [
                  {
                    name: 'get_weather',
                    description: 'Weather.',
                    parameters: { type: 'object', properties: { city: { type: 'string' } } },
                  },
                ],
              },
            ],
            providerOptions: { openai: { user: 'u1' } },
          },
        },
        { stream: true },
      ),
    );
    const [received] = server.requests;
    expect(received!.path).toBe('/v1/chat/completions');
    expect(received!.headers).toMatchObject({
      authorization: 'Bearer test-key',
      'openai-organization': 'org-1',
    });
    const body = received!.body as Record<string, unknown> & {
      messages: Array<Record<string, unknown>>;
    };
    const generatedId = (body.messages[2]!.tool_calls as Array<{ id: string }>)[1]!.id;
    expect(body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather here?' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [
            {
              id: 'call_a',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
            { id: generatedId, type: 'function', function: { name: 'get_time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"t":21}' },
        { role: 'tool', tool_call_id: generatedId, content: '{"now":"12:00"}' },
        { role: 'user', content: 'And tomorrow?' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather.',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0,
      max_tokens: 50,
      stop: ['END'],
      seed: 7,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'object' } },
      },
      user: 'u1',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(generatedId).toMatch(/^adk-/);
  });

  it('handles provider/model names as LiteLLM writes them', async () => {
    server = await startFakeOpenAI({ script: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    const registry = new ModelRegistry();
    registerOpenAI({ apiKey: 'k', baseURL: server.baseURL }, registry);
    registerOpenAI(
      { id: 'litellm', baseURL: server.baseURL, modelPatterns: [/^anthropic\//] },
      registry,
    );
    registerOpenAI(
      {
        id: 'ollama',
        baseURL: server.baseURL,
        modelPatterns: [/^ollama\//],
        stripPrefixes: ['ollama/'],
      },
      registry,
    );
    for (const name of ['openai/gpt-4o-mini', 'anthropic/claude-sonnet-4-5', 'ollama/llama3.2']) {
      await collect(registry.resolve(name).generate(ask('x'), { stream: false }));
    }
    expect(server.requests.map((r) => (r.body as { model: string }).model)).toEqual([
      'gpt-4o-mini',
      'anthropic/claude-sonnet-4-5',
      'llama3.2',
    ]);
    // local servers need no key: no Authorization header is sent
    expect(server.requests[2]!.headers.authorization).toBeUndefined();
    expect(registry.resolve('gpt-4.1')).toBeInstanceOf(OpenAIModel);
  });

  it('talks to Azure OpenAI deployments: api-key header and api-version query', async () => {
    server = await startFakeOpenAI({ script: [{ text: 'hi from azure' }] });
    const azure = createOpenAI({
      id: 'azure',
      apiKey: 'azure-key',
      apiKeyHeader: 'api-key',
      baseURL: `${server.url}/openai/deployments/my-gpt-4o`,
      query: { 'api-version': '2024-10-21' },
    });
    const [final] = await collect(azure('gpt-4o').generate(ask('x'), { stream: false }));
    expect(getText(final!.content)).toBe('hi from azure');
    const [received] = server.requests;
    expect(received!.path).toBe('/openai/deployments/my-gpt-4o/chat/completions');
    expect(received!.query).toEqual({ 'api-version': '2024-10-21' });
    expect(received!.headers['api-key']).toBe('azure-key');
    expect(received!.headers.authorization).toBeUndefined();
  });

  it('requires a key for the OpenAI API, at call time', async () => {
    const saved = process.env.OPENAI_API_KEY;
    try {
      delete process.env.OPENAI_API_KEY;
      const { server, model } = await setup([{ text: 'ok' }], {
        apiKey: undefined,
        requireApiKey: true,
      });
      const error = await collect(model.generate(ask('x'), { stream: false })).catch(
        (e: unknown) => e,
      );
      expect(MissingApiKeyError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('OPENAI_API_KEY');
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});

describe('Chat Completions responses', () => {
  it('reads parallel tool calls of a completion (fixture)', async () => {
    const { model } = await setup([raw(readFixture('openai/chat-completion-tool-calls.json'))]);
    const [final] = await collect(model.generate(ask('Paris and Tokyo?'), { stream: false }));
    expect(getFunctionCalls(final!.content)).toEqual([
      { id: 'call_q8ZkqYqJmD0l0Bz9v0iVyNMa', name: 'get_weather', args: { city: 'Paris' } },
      { id: 'call_CT4nsQZ3ETLRuDkuPXTBcnx2', name: 'get_weather', args: { city: 'Tokyo' } },
    ]);
    expect(final).toMatchObject({
      finishReason: 'STOP',
      modelVersion: 'gpt-4o-2024-08-06',
      usageMetadata: { promptTokenCount: 82, candidatesTokenCount: 46, totalTokenCount: 128 },
    });
  });

  it('assembles streamed tool call fragments by index, with usage only in the last chunk (fixture)', async () => {
    const { model } = await setup([
      raw(readFixture('openai/stream-parallel-tool-calls.sse'), 'text/event-stream'),
    ]);
    const responses = await collect(model.generate(ask('Paris and Tokyo?'), { stream: true }));
    expect(responses).toHaveLength(1);
    expect(getFunctionCalls(responses[0]!.content).map((c) => [c.id, c.args])).toEqual([
      ['call_L0Pk1kvrmc1XKnu1sXJHnfqd', { city: 'Paris' }],
      ['call_ZbRYw5cVrZNC4L3pmkGGJDNf', { city: 'Tokyo' }],
    ]);
    expect(responses[0]!.usageMetadata).toEqual({
      promptTokenCount: 82,
      candidatesTokenCount: 46,
      totalTokenCount: 128,
    });
  });

  it('assembles fragments of several tool calls that interleave', async () => {
    const chunk = (toolCalls: unknown[], finish: string | null = null) => ({
      choices: [{ index: 0, delta: { tool_calls: toolCalls }, finish_reason: finish }],
    });
    const { model } = await setup([
      sse([
        chunk([
          { index: 1, id: 'call_b', type: 'function', function: { name: 'beta', arguments: '' } },
        ]),
        chunk([
          {
            index: 0,
            id: 'call_a',
            type: 'function',
            function: { name: 'alpha', arguments: '{"x"' },
          },
        ]),
        chunk([{ index: 1, function: { arguments: '{"y":' } }]),
        chunk([{ index: 0, function: { arguments: ':1}' } }]),
        chunk([{ index: 1, function: { arguments: '2}' } }], 'tool_calls'),
        '[DONE]',
      ]),
    ]);
    const [final] = await collect(model.generate(ask('x'), { stream: true }));
    expect(getFunctionCalls(final!.content)).toEqual([
      { id: 'call_a', name: 'alpha', args: { x: 1 } },
      { id: 'call_b', name: 'beta', args: { y: 2 } },
    ]);
    expect(final!.usageMetadata).toBeUndefined();
  });

  it('splits tool JSON every 2 characters over 3-byte TCP chunks and still parses it', async () => {
    const args = { q: 'naïve "quotes" \\ back', list: [1, { deep: true }] };
    const { model } = await setup([
      {
        text: 'Sure.',
        toolCalls: [{ name: 'search', args }],
        argsChunkSize: 2,
        faults: { byteChunkSize: 3 },
      },
    ]);
    const responses = await collect(model.generate(ask('x'), { stream: true }));
    const final = responses.at(-1)!;
    expect(getText(final.content)).toBe('Sure.');
    expect(getFunctionCalls(final.content)[0]!.args).toEqual(args);
    expect(final.usageMetadata?.promptTokenCount).toBe(12);
  });

  it('accepts whole tool calls without index and arguments sent as objects (Ollama-style servers)', async () => {
    const { model } = await setup([
      sse([
        {
          choices: [
            {
              index: 0,
              delta: {
                role: 'assistant',
                content: '',
                tool_calls: [
                  { id: 'call_1', function: { name: 'a', arguments: { x: 1 } } },
                  { id: 'call_2', function: { name: 'b', arguments: '{"y":2}' } },
                ],
              },
            },
          ],
        },
        { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
        '[DONE]',
      ]),
      raw(
        JSON.stringify({
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [
                  { id: 'c', type: 'function', function: { name: 'a', arguments: { x: 1 } } },
                ],
              },
              finish_reason: 'tool_calls',
            },
          ],
        }),
      ),
    ]);
    const streamed = await collect(model.generate(ask('x'), { stream: true }));
    expect(getFunctionCalls(streamed.at(-1)!.content)).toEqual([
      { id: 'call_1', name: 'a', args: { x: 1 } },
      { id: 'call_2', name: 'b', args: { y: 2 } },
    ]);
    const [plain] = await collect(model.generate(ask('x'), { stream: false }));
    expect(getFunctionCalls(plain!.content)).toEqual([{ id: 'c', name: 'a', args: { x: 1 } }]);
  });

  it('streams reasoning_content as thought deltas', async () => {
    const { model } = await setup([{ thinking: 'Let me think.', text: 'Four.' }]);
    const responses = await collect(model.generate(ask('2+2?'), { stream: true }));
    expect(responses.at(-1)!.content!.parts).toEqual([
      { text: 'Let me think.', thought: true },
      { text: 'Four.' },
    ]);
    expect(responses.filter((r) => r.partial && r.content!.parts[0]!.thought)).not.toHaveLength(0);
  });

  it('works without stream usage when include_usage is off', async () => {
    const { server, model } = await setup([{ text: 'Hi there' }], { includeUsage: false });
    const responses = await collect(model.generate(ask('x'), { stream: true }));
    expect((server.requests[0]!.body as Record<string, unknown>).stream_options).toBeUndefined();
    expect(getText(responses.at(-1)!.content)).toBe('Hi there');
    expect(responses.at(-1)!.usageMetadata).toBeUndefined();
  });

  it('maps finish reasons length and content_filter, and invalid tool JSON to MALFORMED_FUNCTION_CALL', async () => {
    const bad = JSON.stringify({
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
    });
    const { model } = await setup([
      { text: 'Once', finishReason: 'length' },
      { finishReason: 'safety' },
      raw(bad),
    ]);
    expect((await collect(model.generate(ask('x'), { stream: true }))).at(-1)).toMatchObject({
      finishReason: 'MAX_TOKENS',
      errorCode: 'MAX_TOKENS',
    });
    expect((await collect(model.generate(ask('x'), { stream: false })))[0]).toMatchObject({
      finishReason: 'SAFETY',
      errorCode: 'SAFETY',
    });
    const [malformed] = await collect(model.generate(ask('x'), { stream: false }));
    expect(malformed).toMatchObject({
      finishReason: 'MALFORMED_FUNCTION_CALL',
      errorCode: 'MALFORMED_FUNCTION_CALL',
    });
    expect(getFunctionCalls(malformed!.content)).toEqual([]);
  });
});

describe('Chat Completions failures', () => {
  it('retries a 429 honouring Retry-After and reports the OpenAI error code (fixture)', async () => {
    const { server, model, delays } = await setup(
      [
        {
          raw: {
            status: 429,
            headers: { 'retry-after': '1' },
            body: readFixture('openai/error-429.json'),
          },
        },
        { raw: { status: 429, body: readFixture('openai/error-429.json') } },
        { text: 'ok' },
      ],
      { maxRetries: 1 },
    );
    const error = await collect(model.generate(ask('x'), { stream: true })).catch(
      (e: unknown) => e,
    );
    expect(delays).toEqual([1000]);
    expect(server.requests).toHaveLength(2);
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      retryable: true,
      provider: 'openai',
      model: 'openai/gpt-4o',
      providerErrorType: 'rate_limit_exceeded',
    });
    expect((error as ModelApiError).providerMessage).toContain('Rate limit reached for gpt-4o');
  });

  it('an error chunk, a cut stream, a malformed chunk and a missing finish_reason each throw ModelStreamError', async () => {
    const { model } = await setup([
      sse([
        { choices: [{ index: 0, delta: { content: 'Hi' } }] },
        { error: { message: 'upstream failed', type: 'server_error' } },
      ]),
      { text: 'one two three four', faults: { cutAfterEvents: 2 } },
      { text: 'one two three four', faults: { malformedAt: 2 } },
      { text: 'one two three four', faults: { endAfterEvents: 3 } },
    ]);
    const kinds: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const { error } = await collectUntilError(model.generate(ask('x'), { stream: true }));
      expect(ModelStreamError.isInstance(error)).toBe(true);
      kinds.push((error as ModelStreamError).kind);
    }
    expect(kinds).toEqual(['provider-error', 'interrupted', 'malformed', 'incomplete']);
  });

  it('opens the per-model circuit after repeated 503 and fails fast', async () => {
    const { server, model } = await setup(
      [{ error: { status: 503 } }, { error: { status: 503 } }],
      { maxRetries: 0, circuitBreaker: { failureThreshold: 2 } },
    );
    for (let i = 0; i < 2; i++)
      await expect(collect(model.generate(ask('x'), { stream: true }))).rejects.toMatchObject({
        status: 503,
      });
    await expect(collect(model.generate(ask('x'), { stream: true }))).rejects.toSatisfy(
      CircuitOpenError.isInstance,
    );
    expect(server.requests).toHaveLength(2);
  });
});

describe.skipIf(!process.env.OPENAI_API_KEY)('OpenAI live API', () => {
  it('answers a short prompt, streamed', async () => {
    const model = createOpenAI()('openai/gpt-4o-mini');
    const responses = await collect(
      model.generate(ask('Say "pong" and nothing else.'), { stream: true }),
    );
    expect(getText(responses.at(-1)!.content).toLowerCase()).toContain('pong');
  });
});
