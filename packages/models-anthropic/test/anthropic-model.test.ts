import {
  getFunctionCalls,
  getText,
  InvalidArgumentError,
  ModelRegistry,
  userContent,
} from '@adk/core';
import {
  readFixture,
  startFakeAnthropic,
  type FakeProviderServer,
  type FakeReply,
} from '@adk/fake-provider-servers';
import { ask, collect, collectUntilError } from '@adk/fake-provider-servers/acceptance';
import { afterEach, describe, expect, it } from 'vitest';

import {
  AnthropicModel,
  CircuitOpenError,
  createAnthropic,
  MissingApiKeyError,
  ModelApiError,
  ModelStreamError,
  registerAnthropic,
  type AnthropicSettings,
} from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(
  script: FakeReply[],
  settings: AnthropicSettings = {},
  name = 'claude-sonnet-4-5',
) {
  server = await startFakeAnthropic({ script });
  const delays: number[] = [];
  const anthropic = createAnthropic({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    ...settings,
    retry: { sleep: async (ms) => void delays.push(ms), ...settings.retry },
  });
  return { server, model: anthropic(name), delays };
}

const fixture = (name: string, contentType = 'application/json') => ({
  raw: { body: readFixture(name), headers: { 'content-type': contentType } },
});

describe('Anthropic request mapping', () => {
  it('sends headers, top-level system, tools, max_tokens and merged tool results with alternating roles', async () => {
    const { server, model } = await setup([{ text: 'ok' }], {
      betas: ['interleaved-thinking-2025-05-14'],
    });
    await collect(
      model.generate(
        {
          model: 'claude-sonnet-4-5',
          systemInstruction: 'Be brief.',
          contents: [
            { role: 'model', parts: [{ text: 'Hello, how can I help?' }] },
            {
              role: 'user',
              parts: [
                { text: 'Weather?' },
                { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
              ],
            },
            { role: 'user', parts: [{ text: 'In Paris and Rome.' }] },
            {
              role: 'model',
              parts: [
                { text: 'pondering', thought: true, thoughtSignature: 'sig' },
                { text: 'unsigned thought', thought: true },
                { text: 'Checking.' },
                { functionCall: { id: 'toolu_1', name: 'get_weather', args: { city: 'Paris' } } },
                { functionCall: { id: 'toolu_2', name: 'get_weather', args: { city: 'Rome' } } },
              ],
            },
            {
              role: 'user',
              parts: [
                { functionResponse: { id: 'toolu_1', name: 'get_weather', response: { t: 21 } } },
              ],
            },
            {
              role: 'user',
              parts: [
                {
                  functionResponse: {
                    id: 'toolu_2',
                    name: 'get_weather',
                    response: { error: 'down' },
                  },
                },
              ],
            },
            { role: 'user', parts: [{ text: 'Thanks' }] },
          ],
          config: {
            temperature: 0.3,
            topK: 5,
            stopSequences: ['END'],
            toolChoice: 'required',
            tools: [
              {
                functionDeclarations: [
                  {
                    name: 'get_weather',
                    description: 'Weather.',
                    parameters: { type: 'object', properties: { city: { type: 'string' } } },
                  },
                  { name: 'noop' },
                ],
              },
            ],
            providerOptions: { anthropic: { metadata: { user_id: 'u1' } } },
          },
        },
        { stream: false },
      ),
    );
    const [received] = server.requests;
    expect(received!.path).toBe('/v1/messages');
    expect(received!.headers).toMatchObject({
      'x-api-key': 'test-key',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'interleaved-thinking-2025-05-14',
    });
    expect(received!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Continue.' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Hello, how can I help?' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBO' } },
            { type: 'text', text: 'In Paris and Rome.' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'pondering', signature: 'sig' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"t":21}' },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: '{"error":"down"}',
              is_error: true,
            },
            { type: 'text', text: 'Thanks' },
          ],
        },
      ],
      tools: [
        {
          name: 'get_weather',
          description: 'Weather.',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
        { name: 'noop', input_schema: { type: 'object', properties: {} } },
      ],
      tool_choice: { type: 'any' },
      temperature: 0.3,
      top_k: 5,
      stop_sequences: ['END'],
      metadata: { user_id: 'u1' },
    });
  });

  it('uses 4096 max_tokens for Claude 3.0 models, maxOutputTokens when set, and a thinking budget', async () => {
    const { server, model } = await setup(
      [{ text: 'a' }, { text: 'b' }],
      {},
      'anthropic/claude-3-haiku-20240307',
    );
    await collect(model.generate(ask('x'), { stream: false }));
    await collect(
      model.generate(
        ask('x', { config: { maxOutputTokens: 2000, thinkingConfig: { thinkingBudget: 3000 } } }),
        { stream: true },
      ),
    );
    expect(server.requests[0]!.body).toMatchObject({
      model: 'claude-3-haiku-20240307',
      max_tokens: 4096,
    });
    expect(server.requests[1]!.body).toMatchObject({
      max_tokens: 7096,
      thinking: { type: 'enabled', budget_tokens: 3000 },
      stream: true,
    });
  });

  it('puts the system breakpoint after the static part of the instruction, the rest after it', async () => {
    const { server, model } = await setup([{ text: 'one' }, { text: 'two' }], {
      promptCaching: true,
    });
    const staticInstruction = 'You are concierge.\n\n- billing: Handles invoices.';
    for (const mood of ['calm', 'grumpy']) {
      await collect(
        model.generate(
          ask('Hi', {
            systemInstruction: `${staticInstruction}\n\nThe guest is ${mood}.`,
            staticInstruction,
          }),
          { stream: false },
        ),
      );
    }
    const systems = server.requests.map((request) => (request.body as { system: unknown }).system);
    expect(systems[0]).toEqual([
      { type: 'text', text: staticInstruction, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'The guest is calm.' },
    ]);
    // The state changed: the cached block is byte-identical, only the block after it differs.
    expect(systems[1]).toEqual([
      { type: 'text', text: staticInstruction, cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'The guest is grumpy.' },
    ]);
  });

  it('ignores a static part the instruction no longer starts with (a callback rewrote it)', async () => {
    const { server, model } = await setup([{ text: 'ok' }], { promptCaching: true });
    await collect(
      model.generate(
        ask('Hi', { systemInstruction: 'Rewritten.', staticInstruction: 'You are concierge.' }),
        { stream: false },
      ),
    );
    expect((server.requests[0]!.body as { system: unknown }).system).toEqual([
      { type: 'text', text: 'Rewritten.', cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('marks cache breakpoints on system, last tool and last block when prompt caching is on', async () => {
    const { server, model } = await setup(
      [{ text: 'ok', usage: { inputTokens: 10, outputTokens: 2, cachedTokens: 900 } }],
      { promptCaching: true },
    );
    const [final] = await collect(
      model.generate(
        ask('Weather?', {
          systemInstruction: 'Long instructions.',
          config: { tools: [{ functionDeclarations: [{ name: 'a' }, { name: 'b' }] }] },
        }),
        { stream: false },
      ),
    );
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body.system).toEqual([
      { type: 'text', text: 'Long instructions.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.tools).toEqual([
      { name: 'a', input_schema: { type: 'object', properties: {} } },
      {
        name: 'b',
        input_schema: { type: 'object', properties: {} },
        cache_control: { type: 'ephemeral' },
      },
    ]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'Weather?', cache_control: { type: 'ephemeral' } }],
      },
    ]);
    expect(final!.usageMetadata).toEqual({
      promptTokenCount: 910,
      candidatesTokenCount: 2,
      totalTokenCount: 912,
      cachedContentTokenCount: 900,
    });
  });

  it('adds a breakpoint on the history before an instruction that travels in the conversation', async () => {
    const { server, model } = await setup([{ text: 'ok' }], { promptCaching: true });
    const request = {
      model: 'x',
      systemInstruction: 'Static.',
      staticInstruction: 'Static.',
      contents: [
        { role: 'user', parts: [{ text: 'Earlier question.' }] },
        { role: 'model', parts: [{ text: 'Earlier answer.' }] },
        { role: 'user', parts: [{ text: 'The guest is in room 7.' }] },
        { role: 'user', parts: [{ text: 'New question.' }] },
      ],
      instructionContentIndex: 2,
      config: {},
    };
    await collect(model.generate(request, { stream: false }));
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Earlier question.' }] },
      {
        role: 'assistant',
        content: [{ type: 'text', text: 'Earlier answer.', cache_control: { type: 'ephemeral' } }],
      },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'The guest is in room 7.' },
          { type: 'text', text: 'New question.', cache_control: { type: 'ephemeral' } },
        ],
      },
    ]);
  });

  it('rejects inline data Anthropic cannot take with a typed error, before any request', async () => {
    const { server, model } = await setup([{ text: 'a' }]);
    const request = {
      model: 'x',
      contents: [{ role: 'user', parts: [{ inlineData: { mimeType: 'audio/wav', data: 'AA' } }] }],
      config: {},
    };
    const error = await collect(model.generate(request, { stream: false })).catch(
      (e: unknown) => e,
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(0);
  });
});

describe('Anthropic responses', () => {
  it('reads text and tool_use blocks of a message (fixture)', async () => {
    const { model } = await setup([fixture('anthropic/messages-tool-use.json')]);
    const [final] = await collect(model.generate(ask('Weather in SF?'), { stream: false }));
    expect(getText(final!.content)).toBe(
      "I'll check the current weather in San Francisco for you.",
    );
    expect(getFunctionCalls(final!.content)).toEqual([
      {
        id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'get_weather',
        args: { location: 'San Francisco, CA', unit: 'celsius' },
      },
    ]);
    expect(final).toMatchObject({
      finishReason: 'STOP',
      modelVersion: 'claude-sonnet-4-5-20250929',
      usageMetadata: { promptTokenCount: 384, candidatesTokenCount: 92, totalTokenCount: 476 },
    });
  });

  it('assembles input_json_delta fragments of a streamed tool call (fixture with ping)', async () => {
    const { model } = await setup([fixture('anthropic/stream-tool-use.sse', 'text/event-stream')]);
    const responses = await collect(model.generate(ask('Weather in SF?'), { stream: true }));
    const partials = responses.filter((r) => r.partial);
    expect(partials.map((r) => getText(r.content))).toEqual([
      'Okay',
      ", let's check the weather for San Francisco, CA:",
    ]);
    const final = responses.at(-1)!;
    expect(final.partial).toBe(false);
    expect(final.content!.parts).toEqual([
      { text: "Okay, let's check the weather for San Francisco, CA:" },
      {
        functionCall: {
          id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
          name: 'get_weather',
          args: { location: 'San Francisco, CA', unit: 'fahrenheit' },
        },
      },
    ]);
    expect(final.usageMetadata).toEqual({
      promptTokenCount: 472,
      candidatesTokenCount: 89,
      totalTokenCount: 561,
    });
  });

  it('streams thinking deltas as thought parts and keeps the signature (fixture)', async () => {
    const { model } = await setup([fixture('anthropic/stream-thinking.sse', 'text/event-stream')]);
    const responses = await collect(model.generate(ask('27 * 453?'), { stream: true }));
    expect(
      responses.filter((r) => r.partial).map((r) => Boolean(r.content!.parts[0]!.thought)),
    ).toEqual([true, true, false]);
    expect(responses.at(-1)!.content!.parts).toEqual([
      {
        text: 'Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3',
        thought: true,
        thoughtSignature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds...',
      },
      { text: '27 * 453 = 12,231' },
    ]);
  });

  it('keeps each thinking block, redacted ones included, with its own signature, and sends them back', async () => {
    const event = (data: Record<string, unknown>) =>
      `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`;
    const start = (index: number, block: Record<string, unknown>) =>
      event({ type: 'content_block_start', index, content_block: block });
    const delta = (index: number, change: Record<string, unknown>) =>
      event({ type: 'content_block_delta', index, delta: change });
    const stop = (index: number) => event({ type: 'content_block_stop', index });
    const sse = [
      event({
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      }),
      start(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'First.' }),
      delta(0, { type: 'signature_delta', signature: 'sig-A' }),
      stop(0),
      start(1, { type: 'redacted_thinking', data: 'ENCRYPTED' }),
      stop(1),
      start(2, { type: 'thinking', thinking: '', signature: '' }),
      delta(2, { type: 'thinking_delta', thinking: 'Second.' }),
      delta(2, { type: 'signature_delta', signature: 'sig-B' }),
      stop(2),
      start(3, { type: 'text', text: '' }),
      delta(3, { type: 'text_delta', text: 'Done.' }),
      stop(3),
      event({
        type: 'message_delta',
        delta: { stop_reason: 'end_turn' },
        usage: { output_tokens: 9 },
      }),
      event({ type: 'message_stop' }),
    ].join('');
    const { server, model } = await setup([
      { raw: { body: sse, headers: { 'content-type': 'text/event-stream' } } },
      { text: 'ok' },
    ]);
    const responses = await collect(model.generate(ask('x'), { stream: true }));
    const final = responses.at(-1)!;
    expect(final.content!.parts).toEqual([
      { text: 'First.', thought: true, thoughtSignature: 'sig-A' },
      {
        text: '[redacted thinking]',
        thought: true,
        thoughtSignature: 'anthropic-redacted-thinking:ENCRYPTED',
      },
      { text: 'Second.', thought: true, thoughtSignature: 'sig-B' },
      { text: 'Done.' },
    ]);
    await collect(
      model.generate(
        {
          model: 'x',
          contents: [
            { role: 'user', parts: [{ text: 'x' }] },
            final.content!,
            { role: 'user', parts: [{ text: 'next' }] },
          ],
          config: {},
        },
        { stream: false },
      ),
    );
    expect((server.requests[1]!.body as { messages: unknown[] }).messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'First.', signature: 'sig-A' },
        { type: 'redacted_thinking', data: 'ENCRYPTED' },
        { type: 'thinking', thinking: 'Second.', signature: 'sig-B' },
        { type: 'text', text: 'Done.' },
      ],
    });
  });

  it('assembles parallel tool calls whose JSON is split every 3 characters, over 1-byte TCP chunks', async () => {
    const args1 = { city: 'São Paulo', opts: { unit: 'c', days: [1, 2] }, note: 'say "hi"\n' };
    const { model } = await setup([
      {
        text: 'Checking both.',
        toolCalls: [
          { name: 'get_weather', args: args1 },
          { name: 'get_time', args: {} },
        ],
        argsChunkSize: 3,
        faults: { byteChunkSize: 1 },
      },
    ]);
    const responses = await collect(model.generate(ask('x'), { stream: true }));
    const final = responses.at(-1)!;
    expect(getFunctionCalls(final.content).map((c) => [c.name, c.args])).toEqual([
      ['get_weather', args1],
      ['get_time', {}],
    ]);
    expect(final.finishReason).toBe('STOP');
  });

  it('maps max_tokens and refusal stop reasons to error codes', async () => {
    const { model } = await setup([
      { text: 'Once', finishReason: 'length' },
      { finishReason: 'safety' },
    ]);
    expect((await collect(model.generate(ask('x'), { stream: true }))).at(-1)).toMatchObject({
      finishReason: 'MAX_TOKENS',
      errorCode: 'MAX_TOKENS',
    });
    expect((await collect(model.generate(ask('x'), { stream: false })))[0]).toMatchObject({
      finishReason: 'SAFETY',
      errorCode: 'SAFETY',
    });
  });
});

describe('Anthropic structured output', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, celsius: { type: 'number' } },
    required: ['city'],
  };
  const answer = { city: 'Paris', celsius: 21.5, note: 'a "quoted" ✓' };

  it('forces a json_response tool and returns its input as the answer text, streamed or not', async () => {
    const reply = { toolCalls: [{ name: 'json_response', args: answer }], argsChunkSize: 5 };
    const { server, model } = await setup([reply, reply]);
    const request = ask('Weather?', {
      config: { responseMimeType: 'application/json', responseSchema: schema },
    });
    const [plain] = await collect(model.generate(request, { stream: false }));
    const streamed = await collect(model.generate(request, { stream: true }));
    expect(server.requests[0]!.body).toMatchObject({
      tools: [{ name: 'json_response', input_schema: schema }],
      tool_choice: { type: 'tool', name: 'json_response' },
    });
    expect(JSON.parse(getText(plain!.content))).toEqual(answer);
    expect(getFunctionCalls(plain!.content)).toEqual([]);
    const final = streamed.at(-1)!;
    expect(JSON.parse(getText(final.content))).toEqual(answer);
    expect(getFunctionCalls(final.content)).toEqual([]);
    const partials = streamed.filter((r) => r.partial);
    expect(partials.length).toBeGreaterThan(1);
    expect(partials.map((r) => getText(r.content)).join('')).toBe(getText(final.content));
  });

  it('keeps real tools (and thinking) untouched: the schema then only lives in the instruction', async () => {
    const { server, model } = await setup([{ text: '{}' }, { text: '{}' }]);
    const tools = [{ functionDeclarations: [{ name: 'lookup' }] }];
    await collect(
      model.generate(ask('x', { config: { responseSchema: schema, tools } }), { stream: false }),
    );
    await collect(
      model.generate(
        ask('x', { config: { responseSchema: schema, thinkingConfig: { thinkingBudget: 2048 } } }),
        { stream: false },
      ),
    );
    expect(
      (server.requests[0]!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name),
    ).toEqual(['lookup']);
    expect(server.requests[0]!.body).not.toHaveProperty('tool_choice');
    expect(server.requests[1]!.body).not.toHaveProperty('tools');
  });
});

describe('Anthropic failures', () => {
  it('retries 429 with Retry-After and 529 overloaded (fixture body), then succeeds', async () => {
    const { server, model, delays } = await setup(
      [
        { error: { status: 429, retryAfter: '3' } },
        { raw: { status: 529, body: readFixture('anthropic/error-overloaded.json') } },
        { text: 'done' },
      ],
      { retry: { initialDelayMs: 100, random: () => 0.999999 } },
    );
    const [final] = await collect(model.generate(ask('x'), { stream: false }));
    expect(getText(final!.content)).toBe('done');
    expect(server.requests).toHaveLength(3);
    expect(delays[0]).toBe(3000);
  });

  it('reports the error type and message of the Anthropic error JSON', async () => {
    const { model } = await setup([
      { error: { status: 400, message: 'messages: roles must alternate' } },
    ]);
    const { error } = await collectUntilError(model.generate(ask('x'), { stream: true }));
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 400,
      retryable: false,
      providerErrorType: 'invalid_request_error',
      providerMessage: 'messages: roles must alternate',
      requestId: 'req_fake_error',
    });
  });

  it('an error event inside the stream throws a typed, retryable ModelStreamError', async () => {
    const { model } = await setup([
      {
        text: 'one two three',
        faults: { errorEventAfter: { events: 3, type: 'overloaded_error', message: 'Overloaded' } },
      },
    ]);
    const { responses, error } = await collectUntilError(
      model.generate(ask('x'), { stream: true }),
    );
    expect(responses).toHaveLength(1);
    expect(error).toMatchObject({
      name: 'ModelStreamError',
      kind: 'provider-error',
      providerErrorType: 'overloaded_error',
      retryable: true,
    });
  });

  it('a stream cut mid-way, a malformed chunk and a missing message_stop each throw ModelStreamError', async () => {
    const { model } = await setup([
      { text: 'one two three', faults: { cutAfterEvents: 4 } },
      { text: 'one two three', faults: { malformedAt: 2 } },
      { text: 'one two three', faults: { endAfterEvents: 6 } },
    ]);
    const kinds: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const { error } = await collectUntilError(model.generate(ask('x'), { stream: true }));
      expect(ModelStreamError.isInstance(error)).toBe(true);
      kinds.push((error as ModelStreamError).kind);
    }
    expect(kinds).toEqual(['interrupted', 'malformed', 'incomplete']);
  });

  it('opens the per-model circuit after repeated 5xx and fails fast', async () => {
    const { server, model } = await setup(
      [{ error: { status: 500 } }, { error: { status: 500 } }],
      {
        maxRetries: 0,
        circuitBreaker: { failureThreshold: 2 },
      },
    );
    await expect(collect(model.generate(ask('x'), { stream: false }))).rejects.toMatchObject({
      status: 500,
    });
    await expect(collect(model.generate(ask('x'), { stream: false }))).rejects.toMatchObject({
      status: 500,
    });
    const error = await collect(model.generate(ask('x'), { stream: true })).catch(
      (e: unknown) => e,
    );
    expect(CircuitOpenError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(2);
  });
});

describe('Anthropic provider', () => {
  it('needs ANTHROPIC_API_KEY at call time, not at creation', async () => {
    server = await startFakeAnthropic({ script: [{ text: 'ok' }] });
    const saved = process.env.ANTHROPIC_API_KEY;
    try {
      delete process.env.ANTHROPIC_API_KEY;
      const model = createAnthropic({ baseURL: server.baseURL })('claude-haiku-4-5');
      await expect(collect(model.generate(ask('x'), { stream: false }))).rejects.toSatisfy(
        MissingApiKeyError.isInstance,
      );
      process.env.ANTHROPIC_API_KEY = 'env-key';
      await collect(model.generate(ask('x'), { stream: false }));
      expect(server.requests[0]!.headers['x-api-key']).toBe('env-key');
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it('registers claude-* and anthropic/* names with a registry', () => {
    const registry = new ModelRegistry();
    registerAnthropic({ apiKey: 'k' }, registry);
    expect(registry.resolve('claude-opus-4-1')).toBeInstanceOf(AnthropicModel);
    expect((registry.resolve('anthropic/claude-sonnet-4-5') as AnthropicModel).apiModelId).toBe(
      'claude-sonnet-4-5',
    );
    expect(() => registry.resolve('gpt-4o')).toThrow(/No model provider/);
  });
});

describe.skipIf(!process.env.ANTHROPIC_API_KEY)('Anthropic live API', () => {
  it('answers a short prompt, streamed', async () => {
    const model = createAnthropic()('claude-haiku-4-5');
    const responses = await collect(
      model.generate(
        { model: 'x', contents: [userContent('Say "pong" and nothing else.')], config: {} },
        { stream: true },
      ),
    );
    expect(getText(responses.at(-1)!.content).toLowerCase()).toContain('pong');
  });
});
