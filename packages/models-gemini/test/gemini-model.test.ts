import { getFunctionCalls, getText, ModelRegistry } from '@adk/core';
import {
  readFixture,
  startFakeGemini,
  type FakeProviderServer,
  type FakeReply,
} from '@adk/fake-provider-servers';
import { ask, collect, collectUntilError } from '@adk/fake-provider-servers/acceptance';
import { afterEach, describe, expect, it } from 'vitest';

import {
  CircuitOpenError,
  createGemini,
  GeminiModel,
  MissingApiKeyError,
  ModelApiError,
  ModelStreamError,
  registerGemini,
  type GeminiSettings,
} from '../src';

let server: FakeProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: FakeReply[], settings: GeminiSettings = {}) {
  server = await startFakeGemini({ script });
  const delays: number[] = [];
  const gemini = createGemini({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    ...settings,
    retry: { sleep: async (ms) => void delays.push(ms), ...settings.retry },
  });
  return { server, model: gemini('gemini-2.5-flash'), delays };
}

const fixture = (name: string, contentType = 'application/json') => ({
  raw: { body: readFixture(name), headers: { 'content-type': contentType } },
});

describe('Gemini request mapping', () => {
  it('sends the Gemini wire format: key header, systemInstruction, tools as JSON Schema, config', async () => {
    const { server, model } = await setup([{ text: 'ok' }]);
    await collect(
      model.generate(
        {
          model: 'gemini-2.5-flash',
          systemInstruction: 'Be brief.',
          contents: [
            {
              role: 'user',
              parts: [
                { text: 'Look' },
                { inlineData: { mimeType: 'image/png', data: 'iVBO', displayName: 'a.png' } },
              ],
            },
            {
              role: 'model',
              parts: [
                { text: 'hmm', thought: true, thoughtSignature: 'sig-1' },
                {
                  functionCall: { id: 'adk-123', name: 'look', args: { x: 1 } },
                  thoughtSignature: 'sig-2',
                },
              ],
            },
            {
              role: 'user',
              parts: [
                { functionResponse: { id: 'adk-123', name: 'look', response: { seen: true } } },
              ],
            },
            { role: 'user', parts: [] },
          ],
          config: {
            temperature: 0.2,
            maxOutputTokens: 100,
            stopSequences: ['END'],
            responseSchema: { type: 'object' },
            thinkingConfig: { includeThoughts: true, thinkingBudget: 512 },
            toolChoice: { name: 'look' },
            labels: { team: 'x' },
            tools: [
              {
                functionDeclarations: [
                  {
                    name: 'look',
                    description: 'Look.',
                    parameters: { type: 'object', properties: { x: { type: 'integer' } } },
                  },
                ],
              },
            ],
            providerOptions: {
              gemini: {
                safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
              },
            },
          },
        },
        { stream: false },
      ),
    );
    const [received] = server.requests;
    expect(received!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(received!.headers['x-goog-api-key']).toBe('test-key');
    expect(received!.body).toEqual({
      contents: [
        {
          role: 'user',
          parts: [{ text: 'Look' }, { inlineData: { mimeType: 'image/png', data: 'iVBO' } }],
        },
        {
          role: 'model',
          parts: [
            { text: 'hmm', thought: true, thoughtSignature: 'sig-1' },
            { functionCall: { name: 'look', args: { x: 1 } }, thoughtSignature: 'sig-2' },
          ],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'look', response: { seen: true } } }] },
      ],
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'look',
              description: 'Look.',
              parametersJsonSchema: { type: 'object', properties: { x: { type: 'integer' } } },
            },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['look'] } },
      generationConfig: {
        temperature: 0.2,
        maxOutputTokens: 100,
        stopSequences: ['END'],
        responseJsonSchema: { type: 'object' },
        responseMimeType: 'application/json',
        thinkingConfig: { includeThoughts: true, thinkingBudget: 512 },
      },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
  });

  it('streams from streamGenerateContent?alt=sse and keeps provider ids of function calls', async () => {
    const { server, model } = await setup([{ text: 'ok' }]);
    await collect(
      model.generate(
        {
          model: 'x',
          contents: [
            { role: 'model', parts: [{ functionCall: { id: 'fc_1', name: 'f', args: {} } }] },
            {
              role: 'user',
              parts: [{ functionResponse: { id: 'fc_1', name: 'f', response: {} } }],
            },
          ],
          config: {},
        },
        { stream: true },
      ),
    );
    const [received] = server.requests;
    expect(received!.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(received!.query).toEqual({ alt: 'sse' });
    const body = received!.body as {
      contents: Array<{ parts: Array<Record<string, { id?: string }>> }>;
    };
    // contents[0] is the user turn put before a conversation starting with the model.
    expect(body.contents[1]!.parts[0]!.functionCall!.id).toBe('fc_1');
    expect(body.contents[2]!.parts[0]!.functionResponse!.id).toBe('fc_1');
  });

  it('adds a user turn when the contents end with a model turn', async () => {
    const { server, model } = await setup([{ text: 'ok' }]);
    await collect(
      model.generate(
        {
          model: 'x',
          contents: [
            { role: 'user', parts: [{ text: 'Hi' }] },
            { role: 'model', parts: [{ text: 'Hello' }] },
          ],
          config: {},
        },
        { stream: false },
      ),
    );
    expect((server.requests[0]!.body as { contents: unknown[] }).contents.at(-1)).toEqual({
      role: 'user',
      parts: [
        {
          text: 'Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed.',
        },
      ],
    });
  });

  it('adds a user turn when contents are empty (the API rejects empty contents)', async () => {
    const { server, model } = await setup([{ text: 'ok' }]);
    await collect(
      model.generate(
        { model: 'x', contents: [], systemInstruction: 'Greet.', config: {} },
        { stream: false },
      ),
    );
    expect((server.requests[0]!.body as { contents: unknown }).contents).toEqual([
      {
        role: 'user',
        parts: [{ text: 'Handle the requests as specified in the System Instruction.' }],
      },
    ]);
  });
});

describe('Gemini responses', () => {
  it('reads parallel function calls with a thought signature and usage with thoughts (fixture)', async () => {
    const { model } = await setup([fixture('gemini/generate-content-parallel-calls.json')]);
    const [final] = await collect(model.generate(ask('Paris and London?'), { stream: false }));
    const calls = getFunctionCalls(final!.content);
    expect(calls.map((c) => [c.name, c.args])).toEqual([
      ['get_weather', { city: 'Paris' }],
      ['get_weather', { city: 'London' }],
    ]);
    expect(calls.every((c) => c.id?.startsWith('adk-'))).toBe(true);
    expect(final!.content!.parts[0]!.thoughtSignature).toBe(
      'CiQB0e2Kb6Bq2MbfIEKMCiT3wUXRJvF2yR9tC8eMZC9p2q8ThAHf',
    );
    expect(final!.usageMetadata).toEqual({
      promptTokenCount: 71,
      candidatesTokenCount: 30,
      totalTokenCount: 163,
      thoughtsTokenCount: 62,
    });
    expect(final!.modelVersion).toBe('gemini-2.5-flash');
    expect(final!.finishReason).toBe('STOP');
  });

  it('streams thought and answer deltas separately (CRLF fixture)', async () => {
    const { model } = await setup([
      fixture('gemini/stream-thought-and-text.sse', 'text/event-stream'),
    ]);
    const responses = await collect(model.generate(ask('Weather?'), { stream: true }));
    const partials = responses.filter((r) => r.partial);
    expect(partials.map((r) => r.content!.parts[0]!.thought ?? false)).toEqual([
      true,
      false,
      false,
    ]);
    const final = responses.at(-1)!;
    expect(final.partial).toBe(false);
    expect(final.content!.parts).toEqual([
      { text: '**Thinking about the weather**\n\nThe user wants Paris.', thought: true },
      { text: 'It is sunny in Paris, 21°C.' },
    ]);
    expect(getText(final.content)).toBe('It is sunny in Paris, 21°C.');
    expect(final.usageMetadata?.thoughtsTokenCount).toBe(40);
  });

  it('turns a blocked prompt into a response with errorCode and errorMessage', async () => {
    const { model } = await setup([
      fixture('gemini/prompt-blocked.json'),
      { promptBlockReason: 'SAFETY' },
    ]);
    const [blocked] = await collect(model.generate(ask('bad'), { stream: false }));
    expect(blocked).toMatchObject({ errorCode: 'PROHIBITED_CONTENT', finishReason: 'OTHER' });
    expect(blocked!.errorMessage).toContain('PROHIBITED_CONTENT');
    expect(blocked!.content).toBeUndefined();
    const streamed = await collect(model.generate(ask('bad'), { stream: true }));
    expect(streamed).toHaveLength(1);
    expect(streamed[0]).toMatchObject({
      errorCode: 'SAFETY',
      finishReason: 'SAFETY',
      partial: false,
    });
  });

  it('maps finishReason SAFETY and MAX_TOKENS to errorCode, keeping partial content', async () => {
    const { model } = await setup([
      { finishReason: 'safety' },
      { text: 'Once upon a', finishReason: 'length' },
    ]);
    const [safety] = await collect(model.generate(ask('x'), { stream: false }));
    expect(safety).toMatchObject({ finishReason: 'SAFETY', errorCode: 'SAFETY' });
    const responses = await collect(model.generate(ask('story'), { stream: true }));
    expect(responses.at(-1)).toMatchObject({ finishReason: 'MAX_TOKENS', errorCode: 'MAX_TOKENS' });
    expect(getText(responses.at(-1)!.content)).toBe('Once upon a');
  });

  it('parses a stream delivered one byte at a time', async () => {
    const { model } = await setup([
      {
        text: 'Grüße aus Köln — 你好',
        toolCalls: [{ name: 'f', args: { q: 'ü' } }],
        faults: { byteChunkSize: 1 },
      },
    ]);
    const responses = await collect(model.generate(ask('x'), { stream: true }));
    const final = responses.at(-1)!;
    expect(getText(final.content)).toBe('Grüße aus Köln — 你好');
    expect(getFunctionCalls(final.content)[0]!.args).toEqual({ q: 'ü' });
  });
});

describe('Gemini failures', () => {
  it('retries a 429 after its Retry-After, with the Gemini error JSON', async () => {
    const { server, model, delays } = await setup([
      { error: { status: 429, retryAfter: '2' } },
      { text: 'finally' },
    ]);
    const [final] = await collect(model.generate(ask('x'), { stream: false }));
    expect(getText(final!.content)).toBe('finally');
    expect(server.requests).toHaveLength(2);
    expect(delays).toEqual([2000]);
  });

  it('waits for the RetryInfo delay of a quota error body when there is no Retry-After header', async () => {
    const { server, model, delays } = await setup([
      { raw: { status: 429, body: readFixture('gemini/error-429.json') } },
      { text: 'ok' },
    ]);
    await collect(model.generate(ask('x'), { stream: false }));
    expect(delays).toEqual([21_000]);
    expect(server.requests).toHaveLength(2);
  });

  it('reports the provider message and status of an error body (fixture)', async () => {
    const { model } = await setup(
      [{ raw: { status: 429, body: readFixture('gemini/error-429.json') } }],
      { maxRetries: 0 },
    );
    const { error } = await collectUntilError(model.generate(ask('x'), { stream: true }));
    expect(ModelApiError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      retryable: true,
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      providerErrorType: 'RESOURCE_EXHAUSTED',
    });
    expect((error as ModelApiError).providerMessage).toContain('You exceeded your current quota');
  });

  it('a stream cut mid-way throws ModelStreamError after the deltas already yielded', async () => {
    const { model } = await setup([
      { text: 'one two three four five six', faults: { cutAfterEvents: 2 } },
    ]);
    const { responses, error } = await collectUntilError(
      model.generate(ask('x'), { stream: true }),
    );
    expect(responses.map((r) => getText(r.content))).toEqual(['one two ', 'three four ']);
    expect(ModelStreamError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'interrupted' });
  });

  it('a malformed chunk throws ModelStreamError(malformed)', async () => {
    const { model } = await setup([{ text: 'one two three', faults: { malformedAt: 1 } }]);
    const { error } = await collectUntilError(model.generate(ask('x'), { stream: true }));
    expect(error).toMatchObject({ name: 'ModelStreamError', kind: 'malformed', retryable: false });
  });

  it('an error object sent inside the stream throws ModelStreamError(provider-error)', async () => {
    const body =
      'data: {"candidates":[{"content":{"parts":[{"text":"Hel"}],"role":"model"},"index":0}]}\r\n\r\n' +
      'data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\r\n\r\n';
    const { model } = await setup([
      { raw: { body, headers: { 'content-type': 'text/event-stream' } } },
    ]);
    const { responses, error } = await collectUntilError(
      model.generate(ask('x'), { stream: true }),
    );
    expect(responses.map((r) => getText(r.content))).toEqual(['Hel']);
    expect(error).toMatchObject({
      name: 'ModelStreamError',
      kind: 'provider-error',
      providerErrorType: 'UNAVAILABLE',
      retryable: true,
    });
    expect((error as Error).message).toContain('The model is overloaded.');
  });

  it('a stream that ends without a finish reason throws ModelStreamError(incomplete)', async () => {
    const { model } = await setup([{ text: 'one two three four', faults: { endAfterEvents: 1 } }]);
    const { error } = await collectUntilError(model.generate(ask('x'), { stream: true }));
    expect(error).toMatchObject({ kind: 'incomplete' });
  });

  it('opens the circuit after repeated failures and fails fast; it can be turned off', async () => {
    const failing = Array.from({ length: 6 }, () => ({ error: { status: 503 } }));
    const { server, model } = await setup(failing, {
      maxRetries: 0,
      circuitBreaker: { failureThreshold: 2 },
    });
    await expect(collect(model.generate(ask('x'), { stream: false }))).rejects.toMatchObject({
      status: 503,
    });
    await expect(collect(model.generate(ask('x'), { stream: true }))).rejects.toMatchObject({
      status: 503,
    });
    const error = await collect(model.generate(ask('x'), { stream: false })).catch(
      (e: unknown) => e,
    );
    expect(CircuitOpenError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(2);

    const off = createGemini({
      apiKey: 'k',
      baseURL: server.baseURL,
      maxRetries: 0,
      circuitBreaker: false,
    })('gemini-2.5-flash');
    for (let i = 0; i < 3; i++) {
      await expect(collect(off.generate(ask('x'), { stream: false }))).rejects.toMatchObject({
        status: 503,
      });
    }
    expect(server.requests).toHaveLength(5);
  });
});

describe('Gemini provider', () => {
  it('reads the API key from the environment at call time, and a missing key is a typed error', async () => {
    server = await startFakeGemini({ script: [{ text: 'ok' }] });
    const saved = { ...process.env };
    try {
      delete process.env.GEMINI_API_KEY;
      delete process.env.GOOGLE_API_KEY;
      delete process.env.GOOGLE_GENAI_API_KEY;
      const model = createGemini({ baseURL: server.baseURL })('gemini-2.5-flash');
      const error = await collect(model.generate(ask('x'), { stream: false })).catch(
        (e: unknown) => e,
      );
      expect(MissingApiKeyError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('GEMINI_API_KEY');
      expect(server.requests).toHaveLength(0);
      process.env.GOOGLE_API_KEY = 'from-env';
      await collect(model.generate(ask('x'), { stream: false }));
      expect(server.requests[0]!.headers['x-goog-api-key']).toBe('from-env');
    } finally {
      process.env = saved;
    }
  });

  it('registers with a model registry and strips LiteLLM-style prefixes', async () => {
    server = await startFakeGemini({ script: [{ text: 'ok' }] });
    const registry = new ModelRegistry();
    const provider = registerGemini({ apiKey: 'k', baseURL: server.baseURL }, registry);
    const model = registry.resolve('gemini/gemini-2.0-flash');
    expect(model).toBeInstanceOf(GeminiModel);
    expect(registry.resolve('gemini-2.5-pro')).toBe(provider.languageModel('gemini-2.5-pro'));
    await collect(model.generate(ask('x'), { stream: false }));
    expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-2.0-flash:generateContent');
  });
});

describe.skipIf(!process.env.GEMINI_API_KEY)('Gemini live API', () => {
  it('answers a short prompt, streamed', async () => {
    const model = createGemini()('gemini-2.5-flash');
    const responses = await collect(
      model.generate(ask('Say the word "pong" and nothing else.'), { stream: true }),
    );
    expect(getText(responses.at(-1)!.content).toLowerCase()).toContain('pong');
  });
});
